package sparkdrill.stream.schema

import sparkdrill.scan.EvolutionMode

/** The two ways a stream stops for its schema, written once for the driver's barrier and a task's finding
  * past the discovery sample (SPEC 11, "New columns").
  */
private[sparkdrill] object StreamStops {

  /** `file` brings `columns` the schema lacks and the mode keeps the schema. */
  def newColumns(
      file: String,
      columns: Seq[String],
      mode: EvolutionMode,
      line: Option[Long]
  ): StreamSchemaException =
    new StreamSchemaException(
      StreamSchemaException.NewColumns,
      s"${where(file, columns, line)}. schemaEvolutionMode=${mode.name} stops here and keeps the schema: give a " +
        "schema that has them (.schema(...), or a new version in schemaLocation)" +
        (if (line.isEmpty) " or move the file away" else "") + ", then restart"
    )

  /** `file` brought `columns`; `written` (after version `from`) is in `location` for the restart. */
  def changed(
      file: String,
      columns: Seq[String],
      from: Int,
      written: SchemaVersion,
      location: String,
      line: Option[Long]
  ): StreamSchemaException = {
    val goesOn =
      if (line.isEmpty) "it goes on from that file, with the new columns"
      else "the micro-batch that read it is read again, with the new columns"
    new StreamSchemaException(
      StreamSchemaException.Changed,
      s"the stream's schema changed: ${where(file, columns, line)}. Version ${written.version} (adding " +
        s"${written.added.mkString(", ")}) is in schemaLocation $location, after version $from. Build the " +
        s"DataFrame again and restart the query from the same checkpoint (sd.run_stream does both): $goesOn"
    )
  }

  private def where(file: String, columns: Seq[String], line: Option[Long]): String = line match {
    case None => s"$file brings ${columns.mkString(", ")}"
    case Some(n) =>
      s"$file has, at line $n (past the discovery sample), columns the stream's schema lacks: ${columns.mkString(", ")}"
  }
}
