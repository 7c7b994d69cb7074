package sparkdrill.scan

import java.util.Locale

import org.apache.spark.sql.types.{ArrayType, DataType, StringType, StructField, StructType}

import sparkdrill.formats.text.TextBatchReader
import sparkdrill.projection.{ImplicitKind, Projection, ProjectionItem, RequestedColumn, Shape}

/** How one column of an explicit projection (the `project` option) is filled. */
sealed trait Planned extends Serializable

object Planned {

  /** A table column the readers produce (`indexes`: only these elements of the `columns` array). */
  final case class Table(field: StructField, indexes: Option[Seq[Int]] = None) extends Planned

  /** Any other source: implicit, partition, hive or null. */
  final case class Other(source: ColumnSource) extends Planned
}

/** Resolves an explicit projection against a table: the output columns in list order, named as the list
  * spells them (SPEC 4). `*` stands for the wildcard columns where it is listed.
  */
object ProjectedColumns {

  def resolve(plan: TablePlan, projection: Projection): Seq[(StructField, Planned)] =
    projection.items.flatMap {
      case ProjectionItem.Wildcard => plan.wildcardColumns
      case c: ProjectionItem.Column => Seq(column(plan, c.column))
    }

  private def column(plan: TablePlan, c: RequestedColumn): (StructField, Planned) = {
    val table = plan.tableColumns.fields.find(_.name.equalsIgnoreCase(c.name))
    val header = plan.options.boolean("header", default = false)
    c.shape match {
      case Shape.Whole =>
        table match {
          case Some(f) => (f.copy(name = c.name), Planned.Table(f))
          case None => nonTable(plan, c.name)
        }
      case Shape.Members(members) =>
        table match {
          case Some(f) if f.dataType.isInstanceOf[StructType] =>
            // `m.b`: the struct keeps its structure with only the listed members; readers parse only those.
            val pruned = prune(f.dataType.asInstanceOf[StructType], members, c.name)
            (StructField(c.name, pruned), Planned.Table(f.copy(dataType = pruned)))
          case Some(f) =>
            throw new IllegalArgumentException(
              s"spark-drill: option 'project': column '${f.name}' is a ${f.dataType.simpleString}, not a struct, " +
                s"so '${c.name}.${members.map(_.name).mkString(", ")}' cannot be read"
            )
          case None =>
            (StructField(c.name, nullStruct(members)), Planned.Other(ColumnSource.Null(nullStruct(members))))
        }
      case Shape.Indexes(indexes) =>
        table match {
          case Some(f) if !header && f.name == TextBatchReader.ColumnsName =>
            (f.copy(name = c.name), Planned.Table(f, Some(indexes.toSeq)))
          case Some(f) =>
            throw new IllegalArgumentException(
              s"spark-drill: option 'project': column '${f.name}' is a ${f.dataType.simpleString}, not an array, " +
                s"so '${c.name}[${indexes.mkString("], [")}]' cannot be read" +
                (if (header) " (with header=true, columns is an ordinary column)" else "")
            )
          case None =>
            val t = ArrayType(StringType)
            (StructField(c.name, t), Planned.Other(ColumnSource.Null(t)))
        }
    }
  }

  /** The members `members` of struct `s`, in list order; a member `s` lacks is a null string (or struct). */
  private def prune(s: StructType, members: Seq[RequestedColumn], path: String): StructType =
    StructType(members.map { m =>
      s.fields.find(_.name.equalsIgnoreCase(m.name)) match {
        case None => nullStruct(Seq(m)).fields.head
        case Some(f) =>
          (m.shape, f.dataType) match {
            case (Shape.Members(inner), t: StructType) =>
              f.copy(dataType = prune(t, inner, s"$path.${f.name}"))
            case (Shape.Members(_), t) =>
              throw new IllegalArgumentException(
                s"spark-drill: option 'project': member '$path.${f.name}' is a ${t.simpleString}, not a struct"
              )
            case _ => f
          }
      }
    })

  // A requested map no file has is a null struct of its members (strings, as text would give).
  private def nullStruct(members: Seq[RequestedColumn]): StructType = StructType(members.map { m =>
    m.shape match {
      case Shape.Members(inner) => StructField(m.name, nullStruct(inner))
      case Shape.Indexes(_) => StructField(m.name, ArrayType(StringType))
      case Shape.Whole => StructField(m.name, StringType)
    }
  })

  private def nonTable(plan: TablePlan, name: String): (StructField, Planned) = {
    val dir = s"(?i)${java.util.regex.Pattern.quote(plan.partitionLabel)}(\\d+)".r
    plan.implicitLabels.kindOf(name) match {
      case Some(kind: ImplicitKind.FileKind) =>
        (StructField(name, kind.dataType), Planned.Other(ColumnSource.FileConstant(kind)))
      case Some(kind: ImplicitKind.RowKind) =>
        val field =
          if (kind == ImplicitKind.Line) sparkdrill.formats.RecordColumns.LineField
          else sparkdrill.formats.RecordColumns.OffsetField
        (StructField(name, kind.dataType), Planned.Table(field))
      case None =>
        name match {
          case _ if plan.isHiveColumn(name) =>
            (StructField(name, StringType), Planned.Other(ColumnSource.Hive(name)))
          case dir(n) if !plan.hiveStyle =>
            (StructField(name, StringType), Planned.Other(ColumnSource.Partition(n.toInt)))
          case _ if plan.claimParsed(name).isDefined =>
            val t = plan.claimParsed(name).get.dataType
            (StructField(name, t), Planned.Other(ColumnSource.Parsed(-1, name.toLowerCase(Locale.ROOT), t)))
          case _ =>
            val t: DataType = StringType
            (StructField(name, t), Planned.Other(ColumnSource.Null(t)))
        }
    }
  }
}
