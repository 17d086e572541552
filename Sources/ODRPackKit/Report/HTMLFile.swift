import Foundation

/// Writes a report page beside its final name and renames it into place.
public enum HTMLFile {
    public static func write(_ html: String, to path: String) throws {
        do {
            try AtomicFile.write(Data(html.utf8), to: path)
        } catch AtomicFile.Failure.create(let code) {
            throw ODRPackError.system("cannot write '\(path)'", code)
        } catch AtomicFile.Failure.rename(let code) {
            throw ODRPackError.system("cannot move the report into '\(path)'", code)
        }
    }
}
