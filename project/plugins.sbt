// Published to Maven Central; no other plugin repository is reachable from the build machines.
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.4")
// The excel format's jar carries Apache POI relocated under sparkdrill.shaded (build.sbt, `excel`).
addSbtPlugin("com.eed3si9n" % "sbt-assembly" % "2.3.1")
