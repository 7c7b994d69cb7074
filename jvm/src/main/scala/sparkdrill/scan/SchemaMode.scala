package sparkdrill.scan

import java.util.Locale

import org.apache.spark.sql.types.StructType

/** How the columns of several files make one table (SPEC 5, `schemaMode`). Files come in path order. */
sealed abstract class SchemaMode(val name: String) {
  def resolve(fileSchemas: Seq[StructType]): StructType
}

object SchemaMode {

  /** The union of all files' columns, in first-seen order. */
  case object Evolve extends SchemaMode("evolve") {
    def resolve(fileSchemas: Seq[StructType]): StructType =
      TablePlan.unionByName(fileSchemas.filter(_.nonEmpty))
  }

  /** The first file's columns; other files' extra columns are ignored (and counted as dropped). */
  case object Strict extends SchemaMode("strict") {
    def resolve(fileSchemas: Seq[StructType]): StructType =
      TablePlan.unionByName(fileSchemas.find(_.nonEmpty).toSeq)
  }

  /** The first file's columns; a file with other columns is an error naming it and the columns. */
  final case class Fail(paths: Seq[String]) extends SchemaMode("fail") {
    def resolve(fileSchemas: Seq[StructType]): StructType = {
      def names(s: StructType) = s.fieldNames.map(_.toLowerCase(Locale.ROOT)).toSet
      val indexed = fileSchemas.zip(paths).filter(_._1.nonEmpty)
      indexed.headOption.foreach { case (first, firstPath) =>
        indexed.tail.find { case (s, _) => names(s) != names(first) }.foreach { case (s, path) =>
          val extra = s.fieldNames.filterNot(n => names(first).contains(n.toLowerCase(Locale.ROOT)))
          val lacking = first.fieldNames.filterNot(n => names(s).contains(n.toLowerCase(Locale.ROOT)))
          throw new IllegalArgumentException(
            s"spark-drill: $path has columns that differ from those of $firstPath (schemaMode=fail): " +
              s"extra [${extra.mkString(", ")}], missing [${lacking.mkString(", ")}]; " +
              "schemaMode=evolve unions the columns, schemaMode=strict keeps the first file's"
          )
        }
      }
      TablePlan.unionByName(indexed.headOption.map(_._1).toSeq)
    }
  }

  def from(options: sparkdrill.formats.ReaderOptions, paths: Seq[String] = Nil): SchemaMode =
    options.getOrElse("schemaMode", "evolve").trim.toLowerCase(Locale.ROOT) match {
      case "evolve" => Evolve
      case "strict" => Strict
      case "fail" => Fail(paths)
      case other =>
        throw new IllegalArgumentException(
          s"option 'schemaMode' must be evolve, strict or fail, got '$other'"
        )
    }
}
