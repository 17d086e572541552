/// The bytes of each zip record this project writes (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.14-16; docs/build-output.md):
/// pure functions of an entry's facts, apart from the output and hashing pipeline of `AssetPackZipWriter`.
package enum ZipHeaders {
    /// What the central directory keeps of an entry.
    package struct Record: Equatable, Sendable {
        package let name: [UInt8]
        package let method: UInt16
        package let crc: UInt32
        package var compressedSize: UInt64
        package var size: UInt64
        /// Where its local header starts.
        package var offset: UInt64
        package let isFolder: Bool
        /// The entry's Unix mode (type and permission bits) when it is not the pack's standard 0100644 or 040755: an
        /// IPA keeps an app's executables and symbolic links (docs/store.md#ipa).
        package var mode: UInt32?

        package init(
            name: [UInt8], method: UInt16, crc: UInt32, compressedSize: UInt64, size: UInt64, offset: UInt64,
            isFolder: Bool, mode: UInt32? = nil
        ) {
            self.name = name
            self.method = method
            self.crc = crc
            self.compressedSize = compressedSize
            self.size = size
            self.offset = offset
            self.isFolder = isFolder
            self.mode = mode
        }
    }

    /// A local header: the entry's CRC-32 and both sizes, never a data descriptor; with `zip64`, both 32-bit sizes
    /// say "see the extra field" and a 20-byte zip64 field holds them (as Apple's packs do).
    package static func local(
        name: [UInt8], method: UInt16, crc: UInt32, size: UInt64, compressedSize: UInt64, zip64: Bool,
        dosTime: UInt16, dosDate: UInt16
    ) -> [UInt8] {
        var header: [UInt8] = []
        header.reserveCapacity(ZipFormat.localHeaderSize + name.count + 20)
        header.appendLittleEndian(ZipFormat.localHeaderSignature)
        header.appendLittleEndian(
            ZipFormat.versionNeeded(zip64: zip64, method: method, isFolder: name.last == UInt8(ascii: "/")))
        header.appendLittleEndian(ZipFormat.flags(name: name))
        header.appendLittleEndian(method)
        header.appendLittleEndian(dosTime)
        header.appendLittleEndian(dosDate)
        header.appendLittleEndian(crc)
        header.appendLittleEndian(zip64 ? ZipFormat.overflow32 : UInt32(compressedSize))
        header.appendLittleEndian(zip64 ? ZipFormat.overflow32 : UInt32(size))
        header.appendLittleEndian(UInt16(name.count))
        header.appendLittleEndian(UInt16(zip64 ? 20 : 0))
        header += name
        if zip64 {
            header.appendLittleEndian(ZipFormat.zip64ExtraID)
            header.appendLittleEndian(UInt16(16))
            header.appendLittleEndian(size)
            header.appendLittleEndian(compressedSize)
        }
        return header
    }

    /// A central directory header: Unix modes (folders also carry the MS-DOS folder bit), and a zip64 field with only
    /// the numbers that do not fit in 32 bits, in APPNOTE's order.
    package static func central(_ record: Record, dosTime: UInt16, dosDate: UInt16) -> [UInt8] {
        let limit = UInt64(ZipFormat.overflow32)
        var numbers: [UInt8] = []
        if record.size >= limit { numbers.appendLittleEndian(record.size) }
        if record.compressedSize >= limit { numbers.appendLittleEndian(record.compressedSize) }
        if record.offset >= limit { numbers.appendLittleEndian(record.offset) }
        var extra: [UInt8] = []
        if !numbers.isEmpty {
            extra.appendLittleEndian(ZipFormat.zip64ExtraID)
            extra.appendLittleEndian(UInt16(numbers.count))
            extra += numbers
        }
        let unixMode = record.mode ?? (record.isFolder ? ZipFormat.folderMode : ZipFormat.fileMode)
        let mode = unixMode << 16 | (record.isFolder ? ZipFormat.dosFolderAttribute : 0)
        var header: [UInt8] = []
        header.reserveCapacity(ZipFormat.centralHeaderSize + record.name.count + extra.count)
        header.appendLittleEndian(ZipFormat.centralHeaderSignature)
        header.appendLittleEndian(ZipFormat.versionMadeBy)
        header.appendLittleEndian(
            ZipFormat.versionNeeded(zip64: !extra.isEmpty, method: record.method, isFolder: record.isFolder))
        header.appendLittleEndian(ZipFormat.flags(name: record.name))
        header.appendLittleEndian(record.method)
        header.appendLittleEndian(dosTime)
        header.appendLittleEndian(dosDate)
        header.appendLittleEndian(record.crc)
        header.appendLittleEndian(UInt32(min(record.compressedSize, limit)))
        header.appendLittleEndian(UInt32(min(record.size, limit)))
        header.appendLittleEndian(UInt16(record.name.count))
        header.appendLittleEndian(UInt16(extra.count))
        header.appendLittleEndian(UInt16(0))  // comment length
        header.appendLittleEndian(UInt16(0))  // disk number
        header.appendLittleEndian(UInt16(0))  // internal attributes
        header.appendLittleEndian(mode)
        header.appendLittleEndian(UInt32(min(record.offset, limit)))
        header += record.name
        header += extra
        return header
    }

    /// What follows the central directory: the end record, after a zip64 end record and its locator when the count,
    /// the directory's size or its offset does not fit the end record's fields.
    package static func end(entryCount count: UInt64, directoryOffset: UInt64, directorySize: UInt64) -> [UInt8] {
        var end: [UInt8] = []
        let limit = UInt64(ZipFormat.overflow32)
        if count >= 0xFFFF || directoryOffset >= limit || directorySize >= limit {
            let zip64EndOffset = directoryOffset + directorySize
            end.appendLittleEndian(ZipFormat.zip64EndSignature)
            end.appendLittleEndian(UInt64(44))  // the record's size after this field
            end.appendLittleEndian(ZipFormat.versionMadeBy)
            end.appendLittleEndian(UInt16(45))
            end.appendLittleEndian(UInt32(0))  // this disk
            end.appendLittleEndian(UInt32(0))  // the directory's disk
            end.appendLittleEndian(count)
            end.appendLittleEndian(count)
            end.appendLittleEndian(directorySize)
            end.appendLittleEndian(directoryOffset)
            end.appendLittleEndian(ZipFormat.zip64LocatorSignature)
            end.appendLittleEndian(UInt32(0))
            end.appendLittleEndian(zip64EndOffset)
            end.appendLittleEndian(UInt32(1))  // disks in all
        }
        end.appendLittleEndian(ZipFormat.endOfCentralDirectorySignature)
        end.appendLittleEndian(UInt16(0))
        end.appendLittleEndian(UInt16(0))
        end.appendLittleEndian(UInt16(min(count, 0xFFFF)))
        end.appendLittleEndian(UInt16(min(count, 0xFFFF)))
        end.appendLittleEndian(UInt32(min(directorySize, limit)))
        end.appendLittleEndian(UInt32(min(directoryOffset, limit)))
        end.appendLittleEndian(UInt16(0))  // comment length
        return end
    }
}
