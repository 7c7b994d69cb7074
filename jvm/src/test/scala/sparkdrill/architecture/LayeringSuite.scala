package sparkdrill.architecture

import com.tngtech.archunit.core.domain.JavaClasses
import com.tngtech.archunit.core.importer.{ClassFileImporter, ImportOption}
import com.tngtech.archunit.lang.ArchRule
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses
import com.tngtech.archunit.library.Architectures.layeredArchitecture
import org.scalatest.funsuite.AnyFunSuite

/** The layers of docs/architecture.md, checked on the compiled main classes (not by review):
  *
  * {{{
  * spark (DSv2 adapter) -> stream (the stream engine) -> scan -> projection, reader, loader
  * formats -> reader, loader
  * reader -> loader
  * every layer -> errors (the one error factory), which depends on nothing of ours
  * }}}
  */
class LayeringSuite extends AnyFunSuite {
  private lazy val classes: JavaClasses = LayeringSuite.mainClasses

  private def check(rule: ArchRule): Unit = rule.check(classes)

  test("the main classes are found (the rules below are not vacuous)") {
    Seq("spark", "stream", "scan", "projection", "reader", "formats", "loader", "errors").foreach { p =>
      assert(classes.stream().anyMatch(_.getPackageName.startsWith(s"sparkdrill.$p")), p)
    }
  }

  test("dependencies point down the layers only") {
    check(LayeringSuite.layers)
  }

  test("the error factory is the bottom layer: it depends on no other package of spark-drill") {
    check(
      noClasses()
        .that()
        .resideInAPackage("sparkdrill.errors..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(LayeringSuite.layerPackages: _*)
    )
  }

  test("nothing below the adapter imports Spark's DataSource V2 connector API") {
    check(
      noClasses()
        .that()
        .resideOutsideOfPackage("sparkdrill.spark..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.apache.spark.sql.connector..")
    )
  }

  test("the loader and projection know no files: no Hadoop file system, no formats") {
    check(
      noClasses()
        .that()
        .resideInAnyPackage("sparkdrill.loader..", "sparkdrill.projection..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.apache.hadoop..", "sparkdrill.formats..", "sparkdrill.reader..")
    )
  }

  test("a format knows nothing of another format: each is its own folder") {
    val formats = Seq("text", "json", "log")
    assert(formats.forall(f => classes.stream().anyMatch(_.getPackageName == s"sparkdrill.formats.$f")))
    for (a <- formats; b <- formats if a != b)
      check(
        noClasses()
          .that()
          .resideInAPackage(s"sparkdrill.formats.$a..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage(s"sparkdrill.formats.$b..")
      )
  }
}

object LayeringSuite {

  // sbt compiles tests into target/<line>/test-classes, which ArchUnit's own test filter does not know.
  private val mainOnly: ImportOption = location => !location.contains("/test-classes/")

  def mainClasses: JavaClasses =
    new ClassFileImporter().withImportOption(mainOnly).importPackages("sparkdrill")

  /** Every layer but `errors`, which each of them may use. */
  val layerPackages: Seq[String] =
    Seq("spark", "stream", "scan", "projection", "formats", "reader", "loader").map(p => s"sparkdrill.$p..")

  val layers: ArchRule = layeredArchitecture()
    .consideringOnlyDependenciesInLayers()
    .layer("adapter")
    .definedBy("sparkdrill.spark..")
    .layer("stream")
    .definedBy("sparkdrill.stream..")
    .layer("scan")
    .definedBy("sparkdrill.scan..")
    .layer("projection")
    .definedBy("sparkdrill.projection..")
    .layer("formats")
    .definedBy("sparkdrill.formats..")
    .layer("reader")
    .definedBy("sparkdrill.reader..")
    .layer("loader")
    .definedBy("sparkdrill.loader..")
    .layer("errors")
    .definedBy("sparkdrill.errors..")
    .whereLayer("adapter")
    .mayNotBeAccessedByAnyLayer()
    .whereLayer("stream")
    .mayOnlyBeAccessedByLayers("adapter")
    .whereLayer("scan")
    .mayOnlyBeAccessedByLayers("adapter", "stream")
    .whereLayer("formats")
    .mayNotBeAccessedByAnyLayer()
    .whereLayer("projection")
    .mayOnlyBeAccessedByLayers("adapter", "stream", "scan")
    .whereLayer("reader")
    .mayOnlyBeAccessedByLayers("adapter", "stream", "scan", "formats")
    .whereLayer("loader")
    .mayOnlyBeAccessedByLayers("adapter", "stream", "scan", "projection", "reader", "formats")
    .whereLayer("errors")
    .mayOnlyBeAccessedByLayers("adapter", "stream", "scan", "projection", "reader", "formats", "loader")
}
