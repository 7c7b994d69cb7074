package sparkdrill.formats.text

import scala.util.control.NonFatal

/** Whether CSV's count(*) scan searches with the Java Vector API ([[VectorByteFinder]], issue 41): when the jar
  * has the class (the Spark 4 lines; Spark 3.5's classes target Java 8), the JVM has the module
  * `jdk.incubator.vector` (Spark 4's launcher adds it to every driver and executor) and its vectors are 16
  * bytes or wider. The environment variable `SPARK_DRILL_VECTOR=off` forces the word-at-a-time search, so the
  * reader suites can run on that path too (`make test-scalar-scan`).
  */
private[text] object VectorScan {
  private val ClassName = "sparkdrill.formats.text.VectorByteFinder"

  /** Whether the vector search can run here, whatever the environment variable says. */
  lazy val available: Boolean =
    try {
      val usable = Class.forName(ClassName).getDeclaredMethod("usable")
      usable.setAccessible(true)
      usable.invoke(null).asInstanceOf[Boolean]
    } catch {
      case _: ClassNotFoundException | _: LinkageError => false
      case NonFatal(_) => false
    }

  /** Whether the parser uses it. */
  lazy val enabled: Boolean =
    available && !sys.env.get("SPARK_DRILL_VECTOR").exists(_.equalsIgnoreCase("off"))

  /** The vector search when `wanted` (by default, when enabled) and it can run; one serves every parser. */
  def finder(wanted: Boolean = enabled): Option[ByteFinder] = if (wanted && available) Some(shared) else None

  private lazy val shared: ByteFinder = {
    val c = Class.forName(ClassName).getDeclaredConstructor()
    c.setAccessible(true)
    c.newInstance().asInstanceOf[ByteFinder]
  }
}
