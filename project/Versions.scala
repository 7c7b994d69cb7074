// The one place where the JVM build's versions are pinned. The Python side pins PySpark in
// pyproject.toml (the `dev` extra); the sbt launcher version is in project/build.properties.
object Versions {
  // Compile against the oldest Spark 4.0.x; its scala-library is 2.13.16, so Scala may not be newer.
  val spark = sys.props.getOrElse("spark.version", "4.0.0")
  val scala = "2.13.16"
  val scalatest = "3.2.19"
  // Property-based tests (jvm/src/test/scala/sparkdrill/fuzz): ScalaCheck, and ScalaTest's bridge to it,
  // versioned as ScalaTest plus a fourth number and built against ScalaCheck 1.18.
  val scalacheck = "1.18.1"
  val scalatestScalacheck = "3.2.19.0"
  val archunit = "1.5.0"
}
