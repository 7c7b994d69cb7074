package sparkdrill.plugins

import java.io.File
import java.net.URLClassLoader

/** The example format's jar (examples/fixedwidth), built by sbt before the tests and named by the system
  * property build.sbt sets. It is not on this project's test classpath: a test adds it as a user adds theirs.
  */
object ExampleJar {
  val Format = "fixedwidth"

  def file: File = {
    val path = sys.props.getOrElse(
      "sparkdrill.example.jar",
      throw new IllegalStateException("sparkdrill.example.jar is not set: run the tests through dev/sbt")
    )
    val f = new File(path)
    require(f.isFile, s"the example format's jar $f is missing")
    f
  }

  /** A class loader with the jar over this one: what spark-submit's `--jars` gives the driver's threads. */
  def loader(parent: ClassLoader = getClass.getClassLoader): URLClassLoader =
    new URLClassLoader(Array(file.toURI.toURL), parent)

  /** `body` with `loader` as the thread's context class loader. */
  def withContextLoader[T](loader: ClassLoader)(body: => T): T = {
    val thread = Thread.currentThread
    val before = thread.getContextClassLoader
    thread.setContextClassLoader(loader)
    try body
    finally thread.setContextClassLoader(before)
  }
}
