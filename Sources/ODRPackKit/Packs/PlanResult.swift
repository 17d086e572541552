/// Everything `plan` and `validate` learn about a project: manifest → resources → packs → diagnostics.
public struct PlanResult: Sendable {
    public var manifest: TagManifest?
    public var resolution: Resolution?
    public var plan: PackPlan?
    public var diagnostics: [Diagnostic]

    /// The plan when resources-root could be read: without it the plan is of nothing and nothing should show it.
    public var readablePlan: PackPlan? { resolution?.rootPath.isEmpty == false ? plan : nil }
}
