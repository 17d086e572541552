import Foundation
import ODRPackCore
import ODRPackPlatform

/// An Xcode project.pbxproj (old-style plist) with the look-ups the importer needs.
package struct XcodeProject {
    package typealias Object = [String: Any]

    /// The folder that holds the .xcodeproj: Xcode's SOURCE_ROOT.
    let sourceRoot: URL
    let bundlePath: URL
    let objects: [String: Object]
    let rootObject: Object
    /// Each group member's group, to resolve `<group>` paths.
    let parents: [String: String]

    package init(path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard url.pathExtension == "xcodeproj", FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw ODRPackError.unusableInput("'\(path)' is not an Xcode project: pass the path of a .xcodeproj folder")
        }
        let pbxproj = url.appendingPathComponent("project.pbxproj")
        guard let data = FileManager.default.contents(atPath: pbxproj.path) else {
            throw ODRPackError.unusableInput("'\(path)' has no readable project.pbxproj")
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ODRPackError.unusableInput("'\(pbxproj.path)' is not a valid project file (corrupt or truncated)")
        }
        guard let top = plist as? [String: Any], let objects = top["objects"] as? [String: Object],
              let rootID = top["rootObject"] as? String, let root = objects[rootID], root["isa"] as? String == "PBXProject" else {
            throw ODRPackError.unusableInput("'\(pbxproj.path)' is not an Xcode project file: it has no PBXProject root object")
        }
        bundlePath = url
        sourceRoot = url.deletingLastPathComponent()
        self.objects = objects
        rootObject = root
        var parents: [String: String] = [:]
        for (id, object) in objects {
            for child in object["children"] as? [String] ?? [] { parents[child] = id }
        }
        self.parents = parents
    }

    subscript(id: String) -> Object? { objects[id] }

    func ids(_ object: Object?, _ key: String) -> [String] { object?[key] as? [String] ?? [] }

    /// The targets of the project, in project order.
    package var targets: [(id: String, object: Object)] {
        ids(rootObject, "targets").compactMap { id in objects[id].map { (id, $0) } }
    }

    /// A file or group's path relative to the source root, or nil (with why) when it cannot be placed there.
    func path(of id: String) -> Result<String, PathProblem> {
        guard let object = objects[id] else { return .failure(.missing(id)) }
        let ownPath = object["path"] as? String ?? ""
        switch object["sourceTree"] as? String ?? "<group>" {
        case "<group>":
            guard let parent = parents[id] else {
                // The main group: relative to the project folder (PBXProject's projectDirPath).
                let projectDir = rootObject["projectDirPath"] as? String ?? ""
                return .success(Self.join(projectDir, ownPath))
            }
            return path(of: parent).map { Self.join($0, ownPath) }
        case "SOURCE_ROOT":
            return .success(Self.join("", ownPath))
        case "<absolute>":
            let absolute = URL(fileURLWithPath: ownPath).standardizedFileURL.path
            let root = sourceRoot.path.hasSuffix("/") ? sourceRoot.path : sourceRoot.path + "/"
            guard absolute.hasPrefix(root) else { return .failure(.outside(ownPath)) }
            return .success(String(absolute.dropFirst(root.count)))
        case let tree:
            return .failure(.unsupportedSourceTree(tree, ownPath))
        }
    }

    enum PathProblem: Error {
        case missing(String)
        case outside(String)
        case unsupportedSourceTree(String, String)

        var description: String {
            switch self {
            case let .missing(id): return "object \(id) is missing from the project"
            case let .outside(path): return "'\(path)' is outside the project folder"
            case let .unsupportedSourceTree(tree, path): return "'\(path)' is relative to \(tree), which only exists inside an Xcode build"
            }
        }
    }

    static func join(_ base: String, _ path: String) -> String {
        let joined = base.isEmpty ? path : path.isEmpty ? base : base + "/" + path
        return RelativePath.normalize(joined) ?? joined
    }
}
