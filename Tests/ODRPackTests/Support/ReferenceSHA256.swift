import Crypto
import Foundation

/// swift-crypto's SHA-256 in lowercase hex: the tests' reference, independent of the product's own hasher.
func sha256Hex(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }
