import Foundation
import ODRPackCore
import ODRPackPlatform

/// An Xcode project.pbxproj (old-style plist) with the look-ups the importer needs.
package struct XcodeProject {
    package typealias Object = [String: Any]

    /// The folder that holds the .xcodeproj: Xcode's SOURCE_ROOT.
    let sourceRoot: FilePath
    /// The .xcodeproj folder, absolute.
    let bundlePath: FilePath
    let objects: [String: Object]
    let rootObject: Object
    /// Each group member's group, to resolve `<group>` paths.
    let parents: [String: String]

    /// `path` itself when it is a `.xcodeproj`, else the one `.xcodeproj` in the folder `path` names.
    /// - Throws: `ODRPackError.usage` (exit 64) for a folder with none or several, naming them.
    package static func locate(_ path: String) throws -> String {
        let folder = absolutePath(path)
        if folder.extension == "xcodeproj" { return path }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.string, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ODRPackError.usage(
                """
                '\(path)' is neither an .xcodeproj nor a folder: pass the project (MyGame.xcodeproj) or the folder \
                that holds it
                """
            )
        }
        let projects = ((try? FileManager.default.contentsOfDirectory(atPath: folder.string)) ?? [])
            .filter { $0.hasSuffix(".xcodeproj") }.sorted()
        guard projects.count == 1 else {
            throw ODRPackError.usage(
                projects.isEmpty
                    ? "'\(path)' holds no .xcodeproj: pass the project itself (MyGame.xcodeproj)"
                    : "'\(path)' holds \(projects.count) projects (\(projects.joined(separator: ", "))): pass the one to import"
            )
        }
        return folder.joined(projects[0]).string
    }

    /// A path relative to the source root (it may start with `..`) on disk, not folded; "" is the source root.
    /// Joined as text: a file's path can be 20,000 groups deep, and a debug build of `FilePath` checks its whole
    /// storage after each byte it appends, which makes one such join take minutes.
    func onDisk(_ relative: String) -> String {
        relative.isEmpty ? sourceRoot.string : sourceRoot.string.slashJoined(relative)
    }

    /// `path` as an absolute path, `.` and `..` folded without reading the disk (as `URL(fileURLWithPath:)` then
    /// `standardizedFileURL` make it): a relative path is relative to the current folder. Folded by
    /// `FilePath.normalized`, which is linear in the depth: a project's paths can be 20,000 groups deep.
    static func absolutePath(_ path: String) -> FilePath {
        FilePath(FileManager.default.currentDirectoryPath).pushing(FilePath(path)).normalized
    }

    package init(path: String) throws {
        let bundle = Self.absolutePath(path)
        var isDirectory: ObjCBool = false
        guard bundle.extension == "xcodeproj",
            FileManager.default.fileExists(atPath: bundle.string, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw ODRPackError.xcode(.notAProject(path))
        }
        let pbxproj = bundle.joined("project.pbxproj")
        guard let data = FileManager.default.contents(atPath: pbxproj.string) else {
            throw ODRPackError.xcode(.unreadableProjectFile(path))
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ODRPackError.xcode(.corruptProjectFile(pbxproj))
        }
        guard let top = plist as? [String: Any], let objects = top["objects"] as? [String: Object],
            let rootID = top["rootObject"] as? String, let root = objects[rootID],
            root["isa"] as? String == "PBXProject"
        else {
            throw ODRPackError.xcode(.noRootObject(pbxproj))
        }
        bundlePath = bundle
        sourceRoot = bundle.removingLastComponent()
        self.objects = objects
        rootObject = root
        var parents: [String: String] = [:]
        for id in objects.keys.sorted() {
            for child in objects[id]?["children"] as? [String] ?? [] where parents[child] == nil { parents[child] = id }
        }
        self.parents = parents
    }

    subscript(id: String) -> Object? { objects[id] }

    func ids(_ object: Object?, _ key: String) -> [String] { object?[key] as? [String] ?? [] }

    /// The targets of the project, in project order.
    package var targets: [(id: String, object: Object)] {
        ids(rootObject, "targets").compactMap { id in objects[id].map { (id, $0) } }
    }

    /// A file or group's path relative to the source root (it may begin with `..`: resources beside the project), or
    /// why it cannot be placed there. Groups that contain each other are a problem, never endless recursion. One walk
    /// up the groups and one fold of the joined path: time grows with the depth, not with its square (docs/xcode.md).
    func path(of id: String) -> Result<String, PathProblem> {
        // The parts from the object up, then where the outermost one is relative to.
        var chain: [String] = []
        var current = id
        var visited = Set<String>()
        walk: while true {
            guard visited.insert(current).inserted else { return .failure(.cycle(id)) }
            guard let object = objects[current] else { return .failure(.missing(current)) }
            let ownPath = object["path"] as? String ?? ""
            switch object["sourceTree"] as? String ?? "<group>" {
            case "<group>":
                chain.append(ownPath)
                guard let parent = parents[current] else {
                    // The main group: relative to the project folder (PBXProject's projectDirPath).
                    chain.append(rootObject["projectDirPath"] as? String ?? "")
                    break walk
                }
                current = parent
            case "SOURCE_ROOT":
                chain.append(ownPath)
                break walk
            case "<absolute>":
                chain.append(
                    Self.relative(Self.absolutePath(ownPath).string, from: sourceRoot.string))
                break walk
            case let tree:
                return .failure(.unsupportedSourceTree(tree, ownPath))
            }
        }
        return .success(Self.joined(chain.reversed()))
    }

    /// A group that contains itself through its `children`, among the groups reachable from the main group, or nil.
    /// Depth-first without recursion, each object once, so 20,000 nested groups cost no more than 20,000 flat ones.
    func groupCycle() -> String? {
        var converted = 0
        return groupCycle(converted: &converted)
    }

    /// `groupCycle()`, adding to `converted` the children it reads from the project's objects: each group's list is
    /// converted once, when the group is entered, so one group with 100,000 children costs 100,000, not its square
    /// (docs/xcode.md: time grows as n log n in the project's objects).
    func groupCycle(converted: inout Int) -> String? {
        guard let main = rootObject["mainGroup"] as? String else { return nil }
        enum Mark { case open, done }
        var marks: [String: Mark] = [main: .open]
        func children(of id: String) -> [String] {
            let list = ids(objects[id], "children")
            converted += list.count
            return list
        }
        // Each open group with its children and the position of the next one to visit.
        var stack: [(id: String, children: [String], next: Int)] = [(main, children(of: main), 0)]
        while let top = stack.last {
            guard top.next < top.children.count else {
                marks[top.id] = .done
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let child = top.children[top.next]
            switch marks[child] {
            case .open?: return child
            case .done?: continue
            case nil:
                marks[child] = .open
                stack.append((child, children(of: child), 0))
            }
        }
        return nil
    }

    enum PathProblem: Error {
        case missing(String)
        case cycle(String)
        case unsupportedSourceTree(String, String)

        var description: String {
            switch self {
            case .missing(let id): return "object \(id) is missing from the project"
            case .cycle(let id):
                return "object \(id) is in a group that contains itself (the project's groups form a cycle)"
            case .unsupportedSourceTree(let tree, let path):
                return "'\(path)' is relative to \(tree), which only exists inside an Xcode build"
            }
        }
    }

    /// The parts joined as `join` joins two, in one pass: from the last absolute part on, folded once.
    static func joined(_ parts: some Sequence<String>) -> String {
        var kept: [String] = []
        for part in parts {
            if part.hasPrefix("/") { kept.removeAll() }
            if !part.isEmpty { kept.append(part) }
        }
        return normalized(kept.joined(separator: "/"))
    }

    /// `base/path` with `.` and inner `..` folded; `..` that climbs above the source root is kept (`../videos/a.mov`).
    static func join(_ base: String, _ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        return normalized(RelativePath.joined(base, path))
    }

    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        let absolute = path.hasPrefix("/")
        for part in path.slashSeparated(omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// An absolute path relative to an absolute folder, with `..` where it lies outside.
    static func relative(_ path: String, from folder: String) -> String {
        let a = folder.slashSeparated()
        let b = path.slashSeparated()
        var common = 0
        while common < min(a.count, b.count) && a[common] == b[common] { common += 1 }
        return (Array(repeating: "..", count: a.count - common) + b[common...].map(String.init)).joined(separator: "/")
    }
}
