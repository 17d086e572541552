/// Everything `plan` and `validate` learn about a project: manifest → resources → packs → diagnostics.
package struct PlanResult: Sendable {
    package var manifest: TagManifest?
    package var resolution: Resolution?
    package var plan: PackPlan?
    package var diagnostics: [Diagnostic]

    /// The plan when resources-root could be read: without it the plan is of nothing and nothing should show it.
    package var readablePlan: PackPlan? { resolution?.rootPath.isEmpty == false ? plan : nil }
}
