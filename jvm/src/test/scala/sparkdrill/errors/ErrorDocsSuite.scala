package sparkdrill.errors

import java.nio.file.{Files, Paths}

import org.scalatest.funsuite.AnyFunSuite

/** docs/errors.md lists every error class of the factory ([[ErrorClasses.all]]) with its parameters, and no
  * class the factory does not have: a row `| SPARK_DRILL_X | when | p1, p2 (a note), ... |` per class, `-`
  * for none besides `reason`.
  */
class ErrorDocsSuite extends AnyFunSuite {
  private val Row = """^\| (SPARK_DRILL_[A-Z_]+) \|[^|]*\| ([^|]*) \|\s*$""".r

  private lazy val documented: Map[String, Set[String]] = {
    val text = new String(Files.readAllBytes(Paths.get("docs/errors.md")), "UTF-8")
    val rows = text.linesIterator.collect { case Row(name, params) => name -> parameters(params) }.toSeq
    val twice = rows.groupBy(_._1).collect { case (n, rs) if rs.size > 1 => n }
    assert(twice.isEmpty, s"listed twice in docs/errors.md: $twice")
    rows.toMap
  }

  // "file, line (when a task found them), option" -> file, line, option
  private def parameters(cell: String): Set[String] =
    if (cell.trim == "-") Set.empty
    else cell.replaceAll("""\([^)]*\)""", "").split(",").map(_.trim).filter(_.nonEmpty).toSet

  private val inFactory: Map[String, Set[String]] =
    ErrorClasses.all.map(c => c.name -> c.parameters.toSet).toMap

  test("the factory's table is what the tests below compare (not empty, no class twice)") {
    assert(ErrorClasses.all.size >= 20)
    assert(ErrorClasses.all.map(_.name).distinct.size == ErrorClasses.all.size)
    assert(ErrorClasses.all.forall(_.name.startsWith(ErrorClasses.Prefix)))
  }

  test("every class of the factory is in docs/errors.md") {
    assert(inFactory.keySet.diff(documented.keySet).toSeq.sorted == Nil)
  }

  test("every class of docs/errors.md is one the factory makes") {
    assert(documented.keySet.diff(inFactory.keySet).toSeq.sorted == Nil)
  }

  test("each class has the same parameters in both") {
    val differ = inFactory.keySet.intersect(documented.keySet).toSeq.sorted.collect {
      case n if inFactory(n) != documented(n) => s"$n: factory ${inFactory(n)}, docs ${documented(n)}"
    }
    assert(differ == Nil)
  }
}
