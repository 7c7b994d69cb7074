package sparkdrill.scan

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.plugins.ExampleJar
import sparkdrill.plugins.ExampleJar.withContextLoader

/** Formats are found through the calling thread's context class loader as well as spark-drill's own, and kept
  * per loader: a format from a jar in a loader of its own (as `--jars` puts it) is seen by threads of that
  * loader only.
  */
class FormatRegistrySuite extends AnyFunSuite {
  private def names: Seq[String] = FormatRegistry.plugins.map(_.name)

  test("the example format is not on the test classpath") {
    assert(!names.contains(ExampleJar.Format))
    val e = intercept[IllegalArgumentException](FormatRegistry.named(ExampleJar.Format))
    assert(e.getMessage.contains("unknown format 'fixedwidth'"), e.getMessage)
    assert(FormatRegistry.forFile("a.fwf", ScanOptions.catalog.parse(Map.empty)).isEmpty)
  }

  test("a context class loader with the jar sees its format by name, by suffix, and its options") {
    val loader = ExampleJar.loader()
    withContextLoader(loader) {
      assert(FormatRegistry.named("FixedWidth").getClass.getClassLoader eq loader)
      assert(
        FormatRegistry
          .forFile("a.fwf.gz", ScanOptions.catalog.parse(Map.empty))
          .map(_.name)
          .contains(ExampleJar.Format)
      )
      assert(ScanOptions.catalog.find("widths").isDefined)
      // The built-in formats once each, though both loaders list them.
      assert(names.count(_ == "csv") == 1 && names.contains("json"))
    }
    // The list made for that loader is not served to this thread, whose loader lacks the jar.
    assert(!names.contains(ExampleJar.Format))
    assert(ScanOptions.catalog.find("widths").isEmpty)
    val e = intercept[IllegalArgumentException](TableScan.parseOptions(Map("widths" -> "3")))
    assert(e.getMessage.contains("unknown option 'widths'"), e.getMessage)
    withContextLoader(loader)(TableScan.parseOptions(Map("widths" -> "3"))) // no error
  }

  test("a context class loader that cannot see spark-drill still gets the built-in formats") {
    // A loader whose parent is the platform's: ServiceLoader through it finds no spark-drill format.
    withContextLoader(new java.net.URLClassLoader(Array.empty[java.net.URL], null)) {
      assert(names.contains("csv") && names.contains("json"))
    }
    withContextLoader(null)(assert(names.contains("csv")))
  }

  test("planning's driver threads run an item with the caller's context class loader") {
    val loader = ExampleJar.loader()
    val seen = withContextLoader(loader) {
      DriverThreads.map(1 to 16)(_ =>
        FormatRegistry.forFile("a.fwf", ScanOptions.catalog.parse(Map.empty)).map(_.name)
      )
    }
    assert(seen.forall(_.contains(ExampleJar.Format)), seen)
  }
}
