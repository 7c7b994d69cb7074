// spark-drill: Apache Drill's schema-on-read scan framework as a Spark DataSource V2, for Spark 4.x and 3.5.
// Versions, and how a Spark line is picked (-Dspark.version, -Dscala.binary), live in project/Versions.scala.

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

// Main classes target the line's Java (8 for Spark 3.5, so no Java 9+ API slips in); tests always run on
// this machine's Java 17 and may use its API.
val compilerOptions = Seq(
  Compile / javacOptions ++= Seq("--release", Versions.javaRelease),
  Test / javacOptions ++= Seq("--release", "17"),
  scalacOptions ++= Seq("-deprecation", "-feature") ++ unusedWarnings(Versions.scalaBinary),
  Compile / scalacOptions ++= Seq("-release", Versions.javaRelease),
  Test / scalacOptions ++= Seq("-release", "17")
)

// Warnings that hide bugs are errors: unused imports and non-exhaustive matches (Scala 2.12 spells the
// unused warnings with -Ywarn).
def unusedWarnings(scalaBinary: String): Seq[String] = {
  val unused = "imports,privates,locals,implicits"
  val enable = if (scalaBinary == "2.12") s"-Ywarn-unused:$unused" else s"-Wunused:$unused"
  Seq(enable, "-Wconf:cat=unused:e,cat=other-match-analysis:e")
}

// Each Spark line builds into target/<line>_<scala>/ (its jar there, named spark-drill-<line>_<scala>-<v>.jar),
// and a resource records the line so the jar can refuse a Spark of the other line with a clear error.
val lineLayout = Seq(
  target := baseDirectory.value / "target" / Versions.lineDir,
  crossTarget := target.value
)

val lineResource = Compile / resourceGenerators += Def.task {
  val file = (Compile / resourceManaged).value / "sparkdrill" / "spark-line.properties"
  IO.write(
    file,
    s"""line=${Versions.sparkLine}
       |compiledAgainst=${Versions.spark}
       |scalaBinary=${Versions.scalaBinary}
       |""".stripMargin
  )
  Seq(file)
}.taskValue

lazy val root = (project in file("."))
  // `test`, `package` and scalafmt run in the example format's and the excel format's projects too.
  .aggregate(LocalProject("fixedwidth"), LocalProject("excel"))
  .settings(
    name := s"spark-drill-${Versions.sparkLine}",
    // sbt would turn the dot of spark3.5 into a dash; the artifacts are named by the line as written.
    moduleName := name.value,
    lineLayout,
    lineResource,
    Compile / scalaSource := baseDirectory.value / "jvm" / "src" / "main" / "scala",
    // The few lines that differ between Spark lines: one small shim per line (docs/architecture.md).
    Compile / unmanagedSourceDirectories +=
      baseDirectory.value / "jvm" / "src" / "main" / s"scala-${Versions.sparkLine}",
    // Java sources: interfaces for every line, and the Vector API scan for the Spark 4 lines only (Spark 3.5's
    // classes target Java 8, which has no such module). Compiled before the Scala, which loads the vector
    // class by name only: Scala's compiler is never shown the incubator module.
    Compile / javaSource := baseDirectory.value / "jvm" / "src" / "main" / "java",
    Compile / unmanagedSourceDirectories ++= Versions.vectorJava.toSeq
      .map(d => baseDirectory.value / "jvm" / "src" / "main" / d),
    Compile / compileOrder := CompileOrder.JavaThenScala,
    Compile / javacOptions ++= Versions.vectorJava.toSeq
      .flatMap(_ => Seq("--add-modules", "jdk.incubator.vector")),
    Compile / resourceDirectory := baseDirectory.value / "jvm" / "src" / "main" / "resources",
    Test / scalaSource := baseDirectory.value / "jvm" / "src" / "test" / "scala",
    Test / unmanagedSourceDirectories +=
      baseDirectory.value / "jvm" / "src" / "test" / s"scala-${Versions.sparkLine}",
    Test / javaSource := baseDirectory.value / "jvm" / "src" / "test" / "java",
    Test / resourceDirectory := baseDirectory.value / "jvm" / "src" / "test" / "resources",
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql" % Versions.spark % Provided,
      // File events from SQS (fileEvents=sqs): provided by the AWS SDK v2 bundle that S3A (hadoop-aws 3.4+)
      // already needs on the classpath; only the event source loads it (docs/object-stores.md).
      // Netty's client is left out: this code builds its client on Apache's (as S3A does), and Spark's own Netty
      // must stay the one the tests run with.
      ("software.amazon.awssdk" % "sqs" % Versions.awsSdk % Provided)
        .exclude("software.amazon.awssdk", "netty-nio-client"),
      "software.amazon.awssdk" % "apache-client" % Versions.awsSdk % Provided
      // scala.jdk.CollectionConverters on Scala 2.12: Spark 3.5's distribution ships this library (2.7.0).
    ) ++ Versions.scala212Compat.map(_ % Provided) ++ Seq(
      "org.scalatest" %% "scalatest" % Versions.scalatest % Test,
      "org.scalatestplus" %% "scalacheck-1-18" % Versions.scalatestScalacheck % Test,
      "org.scalacheck" %% "scalacheck" % Versions.scalacheck % Test,
      // Reads the compiled classes to hold the layers of docs/architecture.md (LayeringSuite).
      "com.tngtech.archunit" % "archunit" % Versions.archunit % Test,
      // A real HDFS in the test JVM (HdfsCleanSourceSuite): Hadoop's shaded minicluster, beside the shaded
      // client Spark ships, at the line's Hadoop.
      "org.apache.hadoop" % "hadoop-client-minicluster" % Versions.hadoop % Test
    ),
    compilerOptions,
    Compile / console / scalacOptions ~= (_.filterNot(_.startsWith("-W"))),
    Test / fork := true,
    Test / parallelExecution := false,
    Test / javaOptions ++= Seq("-Xmx3g", "-XX:MaxDirectMemorySize=2g", "-Duser.timezone=UTC") ++
      sparkModuleOptions,
    // As Spark 4's launcher starts every JVM (its JavaModuleOptions): the vector scan's module.
    Test / javaOptions ++= Versions.vectorJava.toSeq.map(_ => "--add-modules=jdk.incubator.vector"),
    // PluginJarSuite starts Spark with the example format's jar in spark.jars: built first, named here.
    Test / javaOptions += s"-Dsparkdrill.example.jar=${(LocalProject("fixedwidth") / Compile / packageBin).value}",
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD")
  )

// The example format (`format=fixedwidth`): a third party's format in a jar of its own, on spark-drill's
// public reader contract. Not on the root project's test classpath: PluginJarSuite (and tests/test_plugins.py)
// add its jar to a session the way a user adds theirs. Its own suite uses the root's test kit (test->test).
lazy val fixedwidth = (project in file("examples/fixedwidth"))
  .dependsOn(root % "provided->compile;test->test")
  .settings(
    name := s"spark-drill-example-fixedwidth-${Versions.sparkLine}",
    moduleName := name.value,
    lineLayout,
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql" % Versions.spark % Provided,
      "org.scalatest" %% "scalatest" % Versions.scalatest % Test
    ) ++ Versions.scala212Compat.map(_ % Provided),
    compilerOptions,
    publish / skip := true,
    Test / fork := true,
    Test / javaOptions ++= Seq("-Xmx2g", "-Duser.timezone=UTC") ++ sparkModuleOptions,
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD")
  )

// `format=excel` (SPEC 13): a format in a module and jar of its own, found by the same ServiceLoader as any
// plugin, so that Apache POI and its dependencies never reach the core jar. Its shipped jar is the assembly
// (`excel/assembly`): POI and the libraries it needs relocated under sparkdrill.shaded, so that nothing on
// Spark's classpath changes (Spark ships its own commons-io, commons-compress, commons-codec). log4j-api is
// left out: Spark provides it, and POI only logs through it.
lazy val excel = (project in file("jvm/excel"))
  .dependsOn(root % "provided->compile;test->test")
  .settings(
    name := s"spark-drill-excel-${Versions.sparkLine}",
    moduleName := name.value,
    lineLayout,
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql" % Versions.spark % Provided,
      ("org.apache.poi" % "poi" % Versions.poi).exclude("org.apache.logging.log4j", "log4j-api"),
      ("org.apache.poi" % "poi-ooxml" % Versions.poi).exclude("org.apache.logging.log4j", "log4j-api"),
      "org.scalatest" %% "scalatest" % Versions.scalatest % Test
    ) ++ Versions.scala212Compat.map(_ % Provided),
    compilerOptions,
    publish / skip := true,
    Test / fork := true,
    Test / parallelExecution := false,
    Test / javaOptions ++= Seq("-Xmx2g", "-XX:MaxDirectMemorySize=1g", "-Duser.timezone=UTC") ++
      sparkModuleOptions,
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD"),
    // jvm/excel/target/assembly/<line>/spark-drill-excel-<line>-<v>.jar, apart from `package`'s thin jar of the
    // same name; the wheel carries it and python/spark_drill/_jar.py finds it there in a checkout.
    assembly / assemblyJarName := s"${moduleName.value}_${Versions.scalaBinary}-${version.value}.jar",
    assembly / assemblyOutputPath :=
      baseDirectory.value / "target" / "assembly" / Versions.lineDir / (assembly / assemblyJarName).value,
    assembly / assemblyOption ~= (_.withIncludeScala(false)),
    assembly / assemblyShadeRules := Seq(
      "org.apache.poi.**",
      "org.apache.commons.**",
      "org.apache.xmlbeans.**",
      "org.openxmlformats.**",
      "com.microsoft.schemas.**",
      "org.etsi.**",
      "org.w3.**",
      "com.zaxxer.sparsebits.**",
      "com.graphbuilder.**",
      "schemaorg_apache_xmlbeans.**"
    ).map(p => ShadeRule.rename(p -> "sparkdrill.shaded.@0").inAll),
    assembly / assemblyMergeStrategy := {
      case PathList("META-INF", "services", _*) => MergeStrategy.concat
      case PathList("META-INF", _*) => MergeStrategy.discard
      case "module-info.class" => MergeStrategy.discard
      case _ => MergeStrategy.first
    }
  )

// The loader's micro-benchmark (`make bench-loader`, docs/performance.md): not a test, not in the jar.
lazy val loaderBench = (project in file("bench/loader"))
  .dependsOn(root)
  .settings(
    name := "spark-drill-loader-bench",
    lineLayout,
    Compile / scalaSource := baseDirectory.value,
    libraryDependencies += "org.apache.spark" %% "spark-sql" % Versions.spark,
    compilerOptions,
    publish / skip := true,
    run / fork := true,
    run / javaOptions ++= Seq("-Xmx2g") ++ sparkModuleOptions
  )
