import FuzzDriver
import ODRPackFuzzing

FuzzDriver.run(FuzzEntryPoints.buildManifest)
