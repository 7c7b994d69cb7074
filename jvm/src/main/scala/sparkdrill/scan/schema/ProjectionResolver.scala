package sparkdrill.scan.schema

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StringType, StructField, StructType}

import sparkdrill.loader.ProjectionFilter
import sparkdrill.projection._
import sparkdrill.reader.RecordColumns
import sparkdrill.scan.Distinct
import sparkdrill.errors.DrillErrors

/** Resolves projections against the merged table and the column parsers (Drill's scan-level and table-level
  * projection in one step, since the table is known at planning).
  *
  * Order of lookup for a named column: a table column (a data column wins over any parser, with a warning);
  * else the first parser that claims it; else a null column typed by the null-column rule (another file's
  * type, else string; a member path gives a struct of such columns).
  */
private[sparkdrill] final class ProjectionResolver private[schema] (
    config: ScanConfig,
    table: MergedTable,
    parsers: Seq[ColumnParser],
    context: ParseContext,
    val projection: Projection
) {
  private def lower(s: String): String = s.toLowerCase(Locale.ROOT)

  private val wildcardParsed: Seq[(ColumnParser, ParsedColumn)] =
    if (config.definedSchema.isDefined) Nil // a defined schema is exactly the output
    else parsers.flatMap(p => p.wildcardColumns(context).map(p -> _))

  // Under a defined schema, the columns `*` would add (dirN, hive keys) stay selectable by name (SPEC 5), as
  // Spark keeps partition columns beside a user's schema.
  private val hiddenParsed: Seq[(ColumnParser, ParsedColumn)] =
    parsers.flatMap { p =>
      val hidden = p.hiddenColumns(context)
      val fromWildcard = if (config.definedSchema.isDefined) p.wildcardColumns(context) else Nil
      (hidden ++ fromWildcard).map(p -> _)
    }

  /** Data columns that hide a parser's column of the same name. */
  val warnings: Seq[String] =
    (wildcardParsed ++ hiddenParsed).map(_._2.name).distinct.flatMap { name =>
      table.find(name).map { case (col, _) =>
        s"data column '${col.name}'${col.firstFile.fold("")(f => s" (first in $f)")} hides the implicit " +
          s"column '$name': the data column wins"
      }
    }

  /** Hidden columns for Spark (metadata columns), not already in the output. One a data column shadows is
    * still listed: Spark offers it as `_name` (the table allows renaming conflicting metadata columns).
    */
  def metadataColumns(output: Seq[OutputColumn]): Seq[StructField] = {
    val taken = output.map(c => lower(c.name)).toSet
    Distinct.by(hiddenParsed.map(_._2.field).filterNot(f => taken(lower(f.name))))(f => lower(f.name))
  }

  /** Narrows the scan's own projection to Spark's required columns (see [[ResolvedSchema.plan]]). */
  def narrow(required: Projection): Projection = (required.kind, projection.kind) match {
    case (ProjectionKind.Some, ProjectionKind.Some) =>
      Projection(required.items.map {
        case c: ProjectionItem.Column if !c.metadataColumn =>
          projection.columnItems.find(_.outputName.equalsIgnoreCase(c.column.name)) match {
            case Some(own) =>
              val shape = ProjectionResolver.intersect(own.column.shape, c.column.shape)
              ProjectionItem.Column(RequestedColumn(own.column.name, shape), Some(c.outputName))
            case None => c
          }
        case other => other
      })
    case _ => required
  }

  def plan(p: Projection): ScanPlan = {
    val out = mutable.ArrayBuffer.empty[OutputColumn]
    val readers = mutable.ArrayBuffer.empty[(ReaderColumn, RequestedColumn)]
    val parsed = mutable.LinkedHashMap.empty[Int, (ColumnParser, ParsedColumn)]
    val planWarnings = Vector.newBuilder[String]

    def addReader(rc: ReaderColumn, request: RequestedColumn): Int = {
      readers += rc -> request
      readers.size - 1
    }

    def addTable(col: ScanColumn, shape: Shape, outName: String): Unit = {
      val dt = applyShape(col.name, col.dataType, shape, col.firstFile)
      val indexes = shape match {
        case Shape.Indexes(ix) => Some(ix.toSeq)
        case _ => None
      }
      val field = StructField(col.name, dt, col.nullable)
      val ri =
        addReader(
          ReaderColumn(field, col.fill, col.position, indexes, fromFile = col.origin != ColumnOrigin.Reader),
          RequestedColumn(col.name, shape)
        )
      val source =
        if (config.columnsArray && col.name.equalsIgnoreCase(ColumnsArrayParser.Name))
          ColumnSource.ColumnsArray(ri, ColumnsArrayParser.indexes(RequestedColumn(col.name, shape)))
        else ColumnSource.TableColumn(ri)
      out += OutputColumn(field.copy(name = outName), source)
    }

    def addParsed(parser: ColumnParser, pc: ParsedColumn, outName: String): Unit = {
      val field = pc.field.copy(name = outName)
      pc.kind match {
        case ParsedKind.ColumnsArray(ix) =>
          val request = RequestedColumn(
            ColumnsArrayParser.Name,
            ix.fold[Shape](Shape.Whole)(i => Shape.Indexes(scala.collection.immutable.SortedSet(i: _*)))
          )
          val ri = addReader(
            ReaderColumn(pc.field.copy(name = ColumnsArrayParser.Name), Fill.Zero, None, ix),
            request
          )
          out += OutputColumn(field, ColumnSource.ColumnsArray(ri, ix))
        case ParsedKind.Implicit(kind: ImplicitKind.FileKind) =>
          parsed(out.size) = parser -> pc
          out += OutputColumn(field, ColumnSource.ImplicitColumn(kind))
        case ParsedKind.Implicit(kind: ImplicitKind.RowKind) =>
          // `_line`, `_offset` and `sheet` come from the reader, through a loader column of their own.
          val recordField = kind match {
            case ImplicitKind.Line => RecordColumns.LineField
            case ImplicitKind.Offset => RecordColumns.OffsetField
            case ImplicitKind.Sheet => RecordColumns.SheetField
          }
          val ri = readers.indexWhere(_._1.field.name == recordField.name) match {
            case -1 =>
              addReader(
                ReaderColumn(recordField, Fill.Zero, None, None, fromFile = false),
                RequestedColumn.whole(recordField.name)
              )
            case i => i
          }
          out += OutputColumn(field, ColumnSource.RecordColumn(kind, ri))
        case ParsedKind.Partition(key) =>
          parsed(out.size) = parser -> pc
          out += OutputColumn(field, ColumnSource.PartitionColumn(key))
        case ParsedKind.Custom(id) =>
          parsed(out.size) = parser -> pc
          out += OutputColumn(field, ColumnSource.ParserColumn(id))
      }
    }

    def resolveNamed(item: ProjectionItem.Column): Unit = {
      val column = item.column
      val fromTable = if (item.metadataColumn) None else table.find(column.name)
      fromTable match {
        case Some((col, _)) =>
          claim(RequestedColumn.whole(column.name))
            .filterNot(_._2.kind.isInstanceOf[ParsedKind.ColumnsArray])
            .foreach { case (_, pc) =>
              planWarnings += s"data column '${col.name}' hides the implicit column '${pc.name}': the data column wins"
            }
          addTable(col, column.shape, item.outputName)
        case None =>
          claim(column) match {
            case Some((parser, pc)) => addParsed(parser, pc, item.outputName)
            case None if item.metadataColumn =>
              throw DrillErrors.unknownMetadataColumn(column.name)
            case None =>
              val dt = table.droppedTypes
                .get(lower(column.name))
                .flatMap(t => scala.util.Try(applyShape(column.name, t, column.shape, None)).toOption)
                .getOrElse(ProjectionResolver.nullType(column.shape))
              val field = StructField(column.name, dt, nullable = true)
              val indexes = column.shape match {
                case Shape.Indexes(ix) => Some(ix.toSeq)
                case _ => None
              }
              val ri = addReader(ReaderColumn(field, Fill.Null, None, indexes), column)
              out += OutputColumn(field.copy(name = item.outputName), ColumnSource.TableColumn(ri))
          }
      }
    }

    if (p.kind != ProjectionKind.Empty) {
      val expanded: Set[String] =
        if (!p.hasWildcard) Set.empty
        else (table.columns.map(_.key) ++ wildcardParsed.map(x => lower(x._2.name))).toSet
      p.items.foreach {
        case ProjectionItem.Wildcard =>
          table.columns.foreach(c => addTable(c, Shape.Whole, c.name))
          wildcardParsed.filterNot(x => table.find(x._2.name).isDefined).foreach { case (parser, pc) =>
            addParsed(parser, pc, pc.name)
          }
        case item: ProjectionItem.Column =>
          // `*, a` keeps `a` where `*` puts it (Drill R26); `*, dir0` does not repeat dir0 (DRILL-7080).
          if (!(expanded(lower(item.column.name)) && !item.metadataColumn)) resolveNamed(item)
      }
    }

    out.groupBy(c => lower(c.name)).collectFirst { case (_, cs) if cs.size > 1 => cs.head.name }.foreach {
      n =>
        throw DrillErrors.projectedNameTwice(n)
    }

    val filter =
      if (p.kind == ProjectionKind.Empty) ProjectionFilter.None else RequestedFilter(readers.map(_._2).toSeq)
    new ScanPlan(
      out.toSeq,
      ReaderInput(readers.map(_._1).toSeq, filter, config.positional),
      planWarnings.result(),
      parsed.toMap
    )
  }

  private def claim(column: RequestedColumn): Option[(ColumnParser, ParsedColumn)] =
    parsers.iterator.map(p => p.parse(column, context).map(p -> _)).collectFirst { case Some(c) => c }

  /** The per-file string column `name` stands for (`dirN`, a hive key, `filename`, `filepath`, `fqn`,
    * `suffix`), served by a built-in parser, for pruning files at planning; None for a data column or any
    * other column. Other parsers' columns are left out: their values are asked only for files a query reads.
    */
  def perFileColumn(name: String): Option[(ColumnParser, ParsedColumn)] =
    if (table.find(name).isDefined) None
    else
      claim(RequestedColumn.whole(name)).filter { case (_, pc) =>
        pc.dataType == StringType && (pc.kind match {
          case ParsedKind.Implicit(_: ImplicitKind.FileKind) | ParsedKind.Partition(_) => true
          case _ => false
        })
      }

  private def holdsStructs(t: DataType): Boolean = t match {
    case _: StructType => true
    case ArrayType(e, _) => holdsStructs(e)
    case MapType(_, v, _) => holdsStructs(v)
    case _ => false
  }

  /** The type of a table column narrowed to a projected shape; a shape the type cannot have is an error. */
  private def applyShape(path: String, dt: DataType, shape: Shape, firstFile: Option[String]): DataType = {
    def from = firstFile.fold("")(f => s" (first seen in $f)")
    shape match {
      case Shape.Whole => dt
      case Shape.Indexes(ix) =>
        dt match {
          case _: ArrayType => dt
          case other =>
            throw DrillErrors.indexOfNotAnArray(path, other.simpleString, from, ix.head)
        }
      case Shape.Members(ms) =>
        dt match {
          case s: StructType =>
            // By name through a map: Spark asks for a whole wide struct member by member.
            val byName = mutable.HashMap.empty[String, StructField]
            s.fields.foreach(f => byName.getOrElseUpdate(lower(f.name), f))
            StructType(ms.map { m =>
              byName.get(lower(m.name)) match {
                case Some(f) =>
                  StructField(
                    f.name,
                    applyShape(s"$path.${f.name}", f.dataType, m.shape, firstFile),
                    f.nullable
                  )
                case None => StructField(m.name, ProjectionResolver.nullType(m.shape), nullable = true)
              }
            })
          // The structs of an array's elements or of a map's values, at any depth (`s.k`, `m['x'].b`).
          case ArrayType(e, containsNull) if holdsStructs(e) =>
            ArrayType(applyShape(path, e, shape, firstFile), containsNull)
          case MapType(k, v, valueContainsNull) if holdsStructs(v) =>
            MapType(k, applyShape(path, v, shape, firstFile), valueContainsNull)
          case other =>
            throw DrillErrors.memberOfNotAStruct(path, other.simpleString, from, ms.head.name)
        }
    }
  }
}

private[sparkdrill] object ProjectionResolver {

  /** The type of a column no file has: string; `m.a` gives `struct<a: string>`, `c[1]` `array<string>`. */
  def nullType(shape: Shape): DataType = shape match {
    case Shape.Whole => StringType
    case Shape.Indexes(_) => ArrayType(StringType, containsNull = true)
    case Shape.Members(ms) =>
      StructType(ms.map(m => StructField(m.name, nullType(m.shape), nullable = true)))
  }

  /** The part of a column both projections want. Indexes of the scan's own projection are kept. */
  def intersect(own: Shape, required: Shape): Shape = (own, required) match {
    case (o, Shape.Whole) => o
    case (Shape.Whole, r) => r
    case (Shape.Members(o), Shape.Members(r)) =>
      Shape.Members(
        r.map(rc =>
          o.find(_.matches(rc.name)).fold(rc)(oc => RequestedColumn(oc.name, intersect(oc.shape, rc.shape)))
        )
      )
    case (o, _) => o
  }
}
