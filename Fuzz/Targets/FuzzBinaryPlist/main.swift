import FuzzDriver
import ODRPackKit

FuzzDriver.run(FuzzEntryPoints.binaryPlist)
