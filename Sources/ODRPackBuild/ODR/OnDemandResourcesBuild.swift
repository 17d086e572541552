import ODRPackCore

/// An ODR build needs nothing beyond its options and plan.
struct OnDemandResourcesBuild: FormatBuild {
    mutating func check(_ plan: PackPlan, options: BuildOptions) throws -> [Diagnostic] { [] }

    func output(plan: PackPlan, options: BuildOptions, rootPath: String, transaction: BuildFolderTransaction) throws
        -> any PackOutput
    {
        OnDemandResourcesOutput(plan: plan, options: options, rootPath: rootPath, transaction: transaction)
    }
}
