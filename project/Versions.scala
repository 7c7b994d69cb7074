import sbt._

// The one place where the JVM build's versions are pinned. The Python side pins PySpark in
// pyproject.toml (the `dev` extra); the sbt launcher version is in project/build.properties.
//
// One build, two Spark lines, picked by system properties (README, "Spark versions"):
//   dev/sbt package                                              Spark 4.x,  Scala 2.13, Java 17 bytecode
//   dev/sbt -Dspark.version=3.5.0 package                        Spark 3.5,  Scala 2.12, Java 8 bytecode
//   dev/sbt -Dspark.version=3.5.0 -Dscala.binary=2.13 package    Spark 3.5,  Scala 2.13, Java 8 bytecode
// Each line compiles against its oldest release (no API of a later minor can slip in) and builds into a
// target directory of its own, so switching lines keeps each one's incremental compile.
object Versions {
  val spark: String = sys.props.getOrElse("spark.version", "4.0.0")

  /** The Spark line the jar is for, as artifacts and the runtime check name it. */
  val sparkLine: String = spark.split('.').toList match {
    case "4" :: _ => "spark4"
    case "3" :: "5" :: _ => "spark3.5"
    case _ => sys.error(s"spark.version=$spark: spark-drill builds for Spark 4.x and 3.5.x")
  }

  val scalaBinary: String =
    sys.props.getOrElse("scala.binary", if (sparkLine == "spark4") "2.13" else "2.12")

  // Never newer than the scala-library the line's oldest Spark ships: 4.0.0 has 2.13.16, 3.5.0 has 2.12.18
  // and 2.13.8.
  val scala: String = (sparkLine, scalaBinary) match {
    case ("spark4", "2.13") => "2.13.16"
    case ("spark3.5", "2.12") => "2.12.18"
    case ("spark3.5", "2.13") => "2.13.8"
    case _ => sys.error(s"Spark $spark is not built for Scala $scalaBinary here")
  }

  /** The Java release the main classes target: Spark 4 needs Java 17; Spark 3.5 still runs on Java 8. */
  val javaRelease: String = if (sparkLine == "spark4") "17" else "8"

  /** The Java source directory of the Vector API scan, on the lines whose classes target Java 17. */
  val vectorJava: Option[String] = if (sparkLine == "spark4") Some("java-spark4") else None

  /** The line's directory under target/ and its artifacts' suffix, e.g. spark4_2.13. */
  val lineDir: String = s"${sparkLine}_$scalaBinary"

  /** scala-collection-compat on Scala 2.12 only (2.13 has scala.jdk built in), at the version Spark 3.5 ships. */
  def scala212Compat: Seq[sbt.ModuleID] =
    if (scalaBinary == "2.12") Seq("org.scala-lang.modules" %% "scala-collection-compat" % "2.7.0") else Nil

  // Compiled against, never shipped: at run time the classes come from the AWS SDK v2 bundle beside hadoop-aws
  // (dev/s3-jars: 2.35.4), whose SQS calls this code uses are the same since 2.0.
  val awsSdk = "2.57.8"

  /** The Hadoop client the line's oldest Spark ships (hadoop-client-api): the tests' HDFS runs at it. */
  val hadoop: String = if (sparkLine == "spark4") "3.4.1" else "3.3.4"
  // format=excel reads workbooks with Apache POI (its streaming XSSF package), shaded into the excel jar.
  val poi = "5.5.1"

  val scalatest = "3.2.19"
  // Property-based tests (jvm/src/test/scala/sparkdrill/fuzz): ScalaCheck, and ScalaTest's bridge to it,
  // versioned as ScalaTest plus a fourth number and built against ScalaCheck 1.18.
  val scalacheck = "1.18.1"
  val scalatestScalacheck = "3.2.19.0"
  // Scala 2.13.8 (the Spark 3.5 / 2.13 line) cannot read archunit 1.5's class files; 1.0 it can.
  val archunit: String = if (scala == "2.13.8") "1.0.1" else "1.5.0"
}
