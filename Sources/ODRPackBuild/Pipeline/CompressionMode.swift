/// How entries are compressed inside pack archives.
package enum CompressionMode: String, CaseIterable, Sendable {
    /// Deflate an entry only where its bytes show that it saves a worthwhile amount.
    case auto
    /// Every entry uncompressed, as the store hosts packs.
    case store
    /// Every entry deflated.
    case deflate
}
