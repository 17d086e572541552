import ODRPackCore
import ODRPackFormats
import ODRPackReport

/// What `submit` prints (docs/store.md#submit): a line per pack, a summary, or one `--json` document.
package enum SubmitReport {
    /// `submitted voice-1a2b3c4d-fr: version 3, review submission 7a1…, WAITING_FOR_REVIEW`, one line per pack, and
    /// after `--wait` each decided item's state.
    package static func text(_ outcome: SubmitOutcome) -> String {
        var text = ""
        for submission in outcome.submissions {
            let name =
                submission.id.map { "review submission \($0)" } ?? "a new \(submission.platform) review submission"
            for item in submission.items {
                let version = "version \(item.version ?? "?")"
                switch item.action {
                case .submitted:
                    text += "submitted \(item.assetPackId): \(version), \(name), \(submission.state ?? "?")"
                case .alreadySubmitted:
                    text += "already submitted \(item.assetPackId): \(version), \(name), \(submission.state ?? "?")"
                case .wouldSubmit:
                    text += "would submit \(item.assetPackId): \(version), into \(name)"
                }
                if let state = item.state { text += " (item \(state))" }
                text += "\n"
            }
        }
        let count = outcome.submissions.reduce(0) { $0 + $1.items.count }
        let packs = "\(count) pack\(count == 1 ? "" : "s")"
        let submissions = outcome.submissions.count
        text +=
            outcome.dryRun
            ? "dry run: \(packs) of app \(outcome.app) in \(submissions) review submission\(submissions == 1 ? "" : "s")\n"
            : "\(packs) of app \(outcome.app) in \(submissions) review submission\(submissions == 1 ? "" : "s")\n"
        return text
    }

    /// `{"schemaVersion": 1, "app", "submissions": [{"id", "platform", "state", "items": [{"assetPackId", "versionId",
    /// "itemId", "action"}]}], "diagnostics": [...]}`
    package static func json(_ outcome: SubmitOutcome) -> JSONValue {
        .object([
            ("schemaVersion", .int(1)),
            ("app", .string(outcome.app)),
            (
                "submissions",
                .array(
                    outcome.submissions.map { submission in
                        .object([
                            ("id", .optional(submission.id)),
                            ("platform", .string(submission.platform)),
                            ("state", .optional(submission.state)),
                            (
                                "items",
                                .array(
                                    submission.items.map { item in
                                        .object([
                                            ("assetPackId", .string(item.assetPackId)),
                                            ("versionId", .string(item.versionId)),
                                            ("itemId", .optional(item.itemId)),
                                            ("action", .string(item.action.rawValue)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
            ("diagnostics", DiagnosticsDocument.json(outcome.diagnostics)),
        ])
    }
}
