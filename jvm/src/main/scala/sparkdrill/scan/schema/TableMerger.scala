package sparkdrill.scan.schema

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.types.{DataType, StructField}

import sparkdrill.reader.{ColumnPlaces, TypeLattice}
import sparkdrill.scan.Distinct
import sparkdrill.reader.TypeLattice.Kind
import sparkdrill.errors.DrillErrors

/** Where a table column comes from. */
private[sparkdrill] sealed trait ColumnOrigin extends Serializable

private[sparkdrill] object ColumnOrigin {
  case object Provided extends ColumnOrigin
  case object Defined extends ColumnOrigin

  /** A column the readers fill themselves: the corrupt-record or rescued-data column. */
  case object Reader extends ColumnOrigin
  final case class Discovered(firstFile: String) extends ColumnOrigin

  /** A frozen column of a stream's earlier schema version ([[EarlierColumns]]). */
  final case class Earlier(source: String) extends ColumnOrigin
}

/** One column of the merged table: what every reader must produce for it, and how to fill it where a file
  * lacks it. `position` is the field index for headerless text bound by position; `inferredMaps` the paths
  * of the members discovery made maps ([[InferredMaps]]).
  */
private[sparkdrill] final case class ScanColumn(
    name: String,
    dataType: DataType,
    nullable: Boolean,
    fill: Fill,
    origin: ColumnOrigin,
    position: Option[Int],
    inferredMaps: Seq[String] = Nil
) {
  def field: StructField = StructField(name, dataType, nullable)
  def key: String = name.toLowerCase(Locale.ROOT)

  def firstFile: Option[String] = origin match {
    case ColumnOrigin.Discovered(f) => Some(f)
    case _ => None
  }
}

/** The table columns of the whole scan (projection aside), with per-file reports. */
private[sparkdrill] final case class MergedTable(
    columns: Vector[ScanColumn],
    reports: Seq[FileReport],
    warnings: Seq[String],
    droppedTypes: Map[String, DataType]
) {
  def find(name: String): Option[(ScanColumn, Int)] =
    columns.zipWithIndex.find(_._1.name.equalsIgnoreCase(name))
}

/** Unions the reader schemas of the files (already in path order) under the schema mode, the type conflict
  * rule, the provided schema and the defined schema (SPEC 5).
  */
private[sparkdrill] object TableMerger {
  private def lower(s: String): String = s.toLowerCase(Locale.ROOT)

  private sealed trait Entry
  private final case class Fixed(column: ScanColumn) extends Entry
  private final class Found(val name: String, val firstFile: String) extends Entry {

    /** The join of the column's kind in every file so far, maps made where the objects hold enough keys. */
    var kind: Kind = TypeLattice.NullOnly
  }

  /** `partitionKeys`: lower-case hive keys, which are partition columns even when the provided schema types
    * them.
    */
  def merge(config: ScanConfig, files: Seq[FileSchema], partitionKeys: Set[String]): MergedTable = {
    val warnings = Vector.newBuilder[String]
    val entries = mutable.LinkedHashMap.empty[String, Entry]
    def position(i: Int) = if (config.positional) Some(i) else None

    config.definedSchema match {
      case Some(defined) =>
        defined.fields.zipWithIndex.foreach { case (f, i) =>
          entries(lower(f.name)) = Fixed(
            ScanColumn(f.name, f.dataType, f.nullable, Fill.of(f, None), ColumnOrigin.Defined, position(i))
          )
        }
        if (config.providedSchema.isDefined)
          warnings += "providedSchema is ignored: the schema given with .schema(...) defines the columns"
      case None =>
        config.providedSchema.foreach { provided =>
          provided.columns.filterNot(c => partitionKeys(lower(c.field.name))).zipWithIndex.foreach {
            case (c, i) =>
              val f = c.field
              entries(lower(f.name)) =
                Fixed(ScanColumn(f.name, f.dataType, f.nullable, c.fill, ColumnOrigin.Provided, position(i)))
          }
          provided.ignoredDefaults.foreach { n =>
            warnings += s"providedSchema: the DEFAULT of nullable column '$n' is ignored (only NOT NULL columns take defaults)"
          }
        }
    }

    // A stream's version so far leads, after any provided columns (which it holds with their types already).
    if (config.definedSchema.isEmpty) config.earlier.foreach { earlier =>
      earlier.schema.fields
        .filterNot(f => entries.contains(lower(f.name)) || partitionKeys(lower(f.name)))
        .foreach { f =>
          entries(lower(f.name)) =
            if (earlier.frozen)
              Fixed(
                ScanColumn(
                  f.name,
                  f.dataType,
                  f.nullable,
                  Fill.Null,
                  ColumnOrigin.Earlier(earlier.source),
                  None
                )
              )
            else {
              val found = new Found(f.name, earlier.source)
              found.kind = TypeLattice.withMaps(TypeLattice.of(f.dataType), config.mapInferenceThreshold)
              found
            }
        }
    }

    val closed = config.definedSchema.isDefined || (config.strictSchema && config.providedSchema.isDefined)
    val first = files.find(_.schema.nonEmpty)
    val firstKeys = first.map(_.schema.fieldNames.map(lower).toSet).getOrElse(Set.empty)
    val statuses = Vector.newBuilder[(FileSchema, Seq[(StructField, ColumnStatus)])]

    // First every file's columns are joined, then (knowing the table's types: where they are maps) each
    // discovered column of each file is checked against the earlier files.
    files.foreach { file =>
      if (config.schemaMode == SchemaMode.Fail && file.schema.nonEmpty)
        checkSameColumns(first.get, firstKeys, file)
      val isFirst = first.exists(_ eq file)
      val perColumn = file.schema.fields.toSeq.map { field =>
        val key = lower(field.name)
        lazy val kind = TypeLattice.withMaps(TypeLattice.of(field.dataType), config.mapInferenceThreshold)
        val status: ColumnStatus =
          if (config.positional) ColumnStatus.ByPosition
          else
            entries.get(key) match {
              case Some(Fixed(col)) =>
                if (col.dataType == field.dataType) ColumnStatus.Matched else ColumnStatus.Converted
              case Some(found: Found) =>
                found.kind = TypeLattice.join(found.kind, kind, config.mapInferenceThreshold)
                ColumnStatus.Matched // until the conflicts are known
              case None if closed =>
                ColumnStatus.Dropped(
                  if (config.definedSchema.isDefined) DropReason.DefinedSchema else DropReason.StrictSchema
                )
              case None if config.schemaMode == SchemaMode.Strict && !isFirst =>
                ColumnStatus.Dropped(DropReason.SchemaModeStrict)
              case None =>
                val found = new Found(field.name, file.path)
                found.kind = kind
                entries(key) = found
                ColumnStatus.Added
            }
        field -> status
      }
      statuses += file -> perColumn
    }

    val found = entries.values.collect { case f: Found => f }.toVector
    val foundTypes = found.map(f => f -> TypeLattice.toType(f.kind)).toMap
    SchemaWidth.check(config, found.map(f => StructField(f.name, foundTypes(f))))
    val dataColumns = entries.values.toVector.map {
      case Fixed(c) => c
      case f: Found =>
        ScanColumn(
          f.name,
          foundTypes(f),
          nullable = true,
          Fill.Null,
          ColumnOrigin.Discovered(f.firstFile),
          None,
          if (config.mapInferenceThreshold < 0) Nil else InferredMaps.paths(f.name, f.kind)
        )
    }
    val all = conflicts(config, statuses.result(), entries, foundTypes)

    // The corrupt-record and rescued-data columns, when asked for, come after the data (a defined schema
    // must name them itself, as with Spark's readers).
    val extra =
      if (config.definedSchema.isDefined) Vector.empty
      else
        Distinct
          .by(config.extraColumns.filterNot(c => entries.contains(lower(c.name))))(c => lower(c.name))
          .map { c =>
            ScanColumn(c.name, c.dataType, nullable = true, Fill.Null, ColumnOrigin.Reader, None)
          }
    val columns = dataColumns ++ extra
    val byKey = columns.map(c => c.key -> c).toMap

    val dropped =
      all.flatMap(_._2).collect { case (f, ColumnStatus.Dropped(_)) => lower(f.name) -> f.dataType }
    dropped.map(_._1).distinct.foreach { k =>
      val files =
        all.filter(_._2.exists { case (f, s) => lower(f.name) == k && s.isInstanceOf[ColumnStatus.Dropped] })
      warnings += s"column '${all.flatMap(_._2).find(x => lower(x._1.name) == k).get._1.name}' of " +
        s"${files.map(_._1.path).mkString(", ")} is not a table column and is ignored (${reasonText(config)})"
    }
    val droppedTypes = dropped.groupBy(_._1).map { case (k, ts) =>
      k -> ts.map(_._2).reduce(TypeLattice.widen(_, _, config.mapInferenceThreshold))
    }

    val reports = all.map { case (file, perColumn) =>
      val keys = file.schema.fieldNames.map(lower).toSet
      FileReport(
        path = file.path,
        discovery = file.discovery,
        columns = perColumn.map { case (field, status) =>
          val table = byKey.get(lower(field.name)).filter(_ => !status.isInstanceOf[ColumnStatus.Dropped])
          ColumnReport(
            field.name,
            field.dataType,
            status,
            table.map(_.name),
            table.map(_.dataType),
            table.flatMap(_.firstFile),
            table.map(_.inferredMaps).getOrElse(Nil),
            ColumnPlaces.of(field)
          )
        },
        missing = if (config.positional) Nil else dataColumns.filterNot(c => keys(c.key)).map(_.name)
      )
    }
    reports.flatMap(_.conflicts).foreach(c => warnings += s"type conflict widened: ${c.describe}")

    MergedTable(
      columns,
      reports,
      warnings.result(),
      droppedTypes
    )
  }

  private def reasonText(config: ScanConfig): String =
    if (config.definedSchema.isDefined) "the schema given with .schema(...) defines the columns"
    else if (config.strictSchema) "strictSchema=true keeps only the provided columns"
    else "schemaMode=strict keeps the first file's columns"

  /** The statuses with the type conflicts of discovered columns filled in, file by file in path order;
    * `typeConflict=fail` raises the first.
    */
  private def conflicts(
      config: ScanConfig,
      statuses: Vector[(FileSchema, Seq[(StructField, ColumnStatus)])],
      entries: mutable.LinkedHashMap[String, Entry],
      tableTypes: Map[Found, DataType]
  ): Vector[(FileSchema, Seq[(StructField, ColumnStatus)])] = {
    val indexes = mutable.HashMap.empty[Found, ConflictIndex]
    statuses.map { case (file, perColumn) =>
      file -> perColumn.map {
        case (field, status @ (ColumnStatus.Added | ColumnStatus.Matched)) =>
          entries.get(lower(field.name)) match {
            case Some(found: Found) =>
              val index = indexes.getOrElseUpdate(found, new ConflictIndex(found.name, found.kind))
              index.observe(field.dataType, file.path) match {
                case Some(c) if config.typeConflict == TypeConflictMode.Fail =>
                  throw DrillErrors.typeConflict(c.describe, tableTypes(found).simpleString)
                case Some(c) => field -> ColumnStatus.Widened(c)
                case None => field -> status
              }
            case _ => field -> status
          }
        case other => other
      }
    }
  }

  private def checkSameColumns(first: FileSchema, firstKeys: Set[String], file: FileSchema): Unit = {
    val names = file.schema.fieldNames.toSeq
    val keys = names.map(lower).toSet
    val missing = first.schema.fieldNames.filterNot(n => keys(lower(n)))
    val extra = names.filterNot(n => firstKeys(lower(n)))
    if (missing.nonEmpty || extra.nonEmpty)
      throw DrillErrors.filesDiffer(file.path, missing.toSeq, extra, first.path)
  }
}
