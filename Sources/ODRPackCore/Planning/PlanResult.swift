/// Everything `plan` and `validate` learn about a project: manifest → resources → packs → diagnostics.
package struct PlanResult: Sendable {
    package var manifest: TagManifest?
    package var resolution: Resolution?
    package var plan: PackPlan?
    package var diagnostics: [Diagnostic]
    /// The warnings the manifest's `allow` lists accept (docs/manifest.md#allowed-warnings): not in `diagnostics`, not
    /// counted, not fatal; shown only as a count and in `--json`'s `"allowed"`.
    package var allowed: [Diagnostic] = []

    /// The plan when resources-root could be read: without it the plan is of nothing and nothing should show it.
    package var readablePlan: PackPlan? { resolution?.rootPath.isEmpty == false ? plan : nil }
}
