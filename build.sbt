// spark-drill: Apache Drill's schema-on-read scan framework as a Spark 4 DataSource V2.
// Versions live in project/Versions.scala.

ThisBuild / scalaVersion := Versions.scala
ThisBuild / organization := "io.sparkdrill"
ThisBuild / version := "0.1.0"

// Spark's launcher opens these packages; the tests run Spark in a forked JVM and do the same.
val sparkModuleOptions = Seq(
  "-XX:+IgnoreUnrecognizedVMOptions",
  "--add-opens=java.base/java.lang=ALL-UNNAMED",
  "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
  "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
  "--add-opens=java.base/java.io=ALL-UNNAMED",
  "--add-opens=java.base/java.net=ALL-UNNAMED",
  "--add-opens=java.base/java.nio=ALL-UNNAMED",
  "--add-opens=java.base/java.util=ALL-UNNAMED",
  "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
  "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
  "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
  "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
  "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
  "-Dio.netty.tryReflectionSetAccessible=true"
)

val compilerOptions = Seq(
  javacOptions ++= Seq("--release", "17"),
  scalacOptions ++= Seq(
    "-release",
    "17",
    "-deprecation",
    "-feature",
    "-Wunused:imports,privates,locals,implicits",
    // Warnings that hide bugs are errors: unused imports and non-exhaustive matches.
    "-Wconf:cat=unused:e,cat=other-match-analysis:e"
  )
)

lazy val root = (project in file("."))
  .settings(
    name := "spark-drill",
    Compile / scalaSource := baseDirectory.value / "jvm" / "src" / "main" / "scala",
    Compile / resourceDirectory := baseDirectory.value / "jvm" / "src" / "main" / "resources",
    Test / scalaSource := baseDirectory.value / "jvm" / "src" / "test" / "scala",
    Test / resourceDirectory := baseDirectory.value / "jvm" / "src" / "test" / "resources",
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql" % Versions.spark % Provided,
      "org.scalatest" %% "scalatest" % Versions.scalatest % Test,
      "org.scalatestplus" %% "scalacheck-1-18" % Versions.scalatestScalacheck % Test,
      "org.scalacheck" %% "scalacheck" % Versions.scalacheck % Test,
      // Reads the compiled classes to hold the layers of docs/architecture.md (LayeringSuite).
      "com.tngtech.archunit" % "archunit" % Versions.archunit % Test
    ),
    compilerOptions,
    Compile / console / scalacOptions ~= (_.filterNot(_.startsWith("-W"))),
    Test / fork := true,
    Test / parallelExecution := false,
    Test / javaOptions ++= Seq("-Xmx3g", "-XX:MaxDirectMemorySize=2g", "-Duser.timezone=UTC") ++
      sparkModuleOptions,
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD")
  )

// The loader's micro-benchmark (`make bench-loader`, docs/performance.md): not a test, not in the jar.
lazy val loaderBench = (project in file("bench/loader"))
  .dependsOn(root)
  .settings(
    name := "spark-drill-loader-bench",
    Compile / scalaSource := baseDirectory.value,
    libraryDependencies += "org.apache.spark" %% "spark-sql" % Versions.spark,
    compilerOptions,
    publish / skip := true,
    run / fork := true,
    run / javaOptions ++= Seq("-Xmx2g") ++ sparkModuleOptions
  )
