package sparkdrill.scan.schema

import org.apache.spark.sql.types._

import sparkdrill.projection.{FileInfo, Projection, ProjectionParser}

/** Small builders for tracker tests: files as DDL, projections as Drill lists. */
object TrackerFixtures {
  val Root = "/data"

  /** A file under [[Root]]; its dirs are the path's directories below the root. */
  def file(
      rel: String,
      ddl: String,
      discovery: Discovery = Discovery.Sampled,
      mtime: Long = 0L
  ): FileSchema = {
    val schema = if (ddl.trim.isEmpty) new StructType() else StructType.fromDDL(ddl)
    val dirs = rel.split('/').toSeq.init
    FileSchema(FileInfo(s"$Root/$rel", dirs, 100L, mtime), schema, discovery)
  }

  /** A text file's header: every column a string, found in the header only. */
  def csv(rel: String, header: String*): FileSchema =
    file(rel, header.map(h => s"`$h` STRING").mkString(", "), Discovery.HeaderOnly)

  def headerless(rel: String): FileSchema = file(rel, "columns ARRAY<STRING>", Discovery.HeaderOnly)

  def resolve(config: ScanConfig, project: String, files: FileSchema*): ResolvedSchema =
    ScanSchemaTracker.resolve(
      config,
      if (project == "*") Projection.wildcard else ProjectionParser.parse(project),
      files
    )

  /** `[[name, type, nullable]]` as in the cases. */
  def shape(schema: StructType): Seq[(String, String, Boolean)] =
    schema.fields.toSeq.map(f => (f.name, f.dataType.simpleString, f.nullable))

  def names(schema: StructType): Seq[String] = schema.fieldNames.toSeq
}
