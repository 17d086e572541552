/// A background asset version's `state` as App Store Connect names it (docs/store.md#upload): `AWAITING_UPLOAD` until
/// its file is committed, then `PROCESSING`, and `COMPLETE` or `FAILED`. Open, as the API's own enums are: a state this
/// version of odrpack does not know is kept and shown as sent, never refused.
package struct VersionState: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: String

    package init(rawValue: String) { self.rawValue = rawValue }

    package static let awaitingUpload = Self(rawValue: "AWAITING_UPLOAD")
    package static let processing = Self(rawValue: "PROCESSING")
    package static let failed = Self(rawValue: "FAILED")
    package static let complete = Self(rawValue: "COMPLETE")

    package var description: String { rawValue }
}
