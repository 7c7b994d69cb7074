// Published to Maven Central; no other plugin repository is reachable from the build machines.
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.5.4")
