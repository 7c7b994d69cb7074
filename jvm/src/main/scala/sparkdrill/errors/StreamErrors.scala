package sparkdrill.errors

/** A stream's own errors (SPEC 11; docs/streaming.md). The schema's stop the query with a class
  * `sd.run_stream` matches; the rest are found when the stream is defined or started. Texts as the stream
  * engine wrote them before they had classes (tests and users grep them), behind the `[CLASS]` tag.
  */
trait StreamErrors {

  /** `file` brings `columns`; version `toVersion` (adding `added`, by default those columns) is written to
    * `location` after `fromVersion`. `line`: where a task met them past the discovery sample (the micro-batch
    * is read again on restart); None when the driver found them at admission (it goes on from that file).
    */
  def streamSchemaChanged(
      file: String,
      columns: Seq[String],
      fromVersion: Int,
      toVersion: Int,
      location: String,
      line: Option[Long] = None,
      added: Seq[String] = Nil
  ): StreamStopException = {
    val names = columns.mkString(", ")
    val brings = line match {
      case Some(l) =>
        s"$file has, at line $l (past the discovery sample), columns the stream's schema lacks: $names"
      case None => s"$file brings $names"
    }
    val goesOn =
      if (line.isDefined) "the micro-batch that read it is read again, with the new columns"
      else "it goes on from that file, with the new columns"
    val adding = (if (added.nonEmpty) added else columns).mkString(", ")
    new StreamStopException(
      ErrorClasses.StreamSchemaChanged,
      s"the stream's schema changed: $brings. Version $toVersion (adding $adding) is in schemaLocation " +
        s"$location, after version $fromVersion. Build the DataFrame again and restart the query from the same " +
        s"checkpoint (sd.run_stream does both): $goesOn",
      Map(
        "file" -> file,
        "columns" -> names,
        "fromVersion" -> fromVersion.toString,
        "toVersion" -> toVersion.toString,
        "location" -> location
      ) ++ line.map("line" -> _.toString)
    )
  }

  /** A mode that does not evolve the schema (`mode`) met `columns` in `file` (at `line`, in a task). */
  def streamNewColumns(
      file: String,
      columns: Seq[String],
      mode: String,
      line: Option[Long]
  ): StreamStopException = {
    val names = columns.mkString(", ")
    val text = line match {
      case Some(l) =>
        s"$file has, at line $l (past the discovery sample), columns the stream's schema lacks: $names. " +
          s"schemaEvolutionMode=$mode stops here and keeps the schema: give a schema that has them " +
          "(.schema(...), or a new version in schemaLocation), then restart"
      case None =>
        s"$file has columns the stream's schema lacks: $names. schemaEvolutionMode=$mode stops here and keeps " +
          "the schema: give a schema that has them (.schema(...), or a new version in schemaLocation) or move " +
          "the file away, then restart"
    }
    new StreamStopException(
      ErrorClasses.StreamNewColumns,
      text,
      Map("file" -> file, "columns" -> names, "mode" -> mode) ++ line.map("line" -> _.toString)
    )
  }

  /** The DataFrame was built on version `builtOn`; `location` now holds `newest`. */
  def streamStaleSchema(builtOn: Int, newest: Int, location: String): StreamStopException =
    new StreamStopException(
      ErrorClasses.StreamStaleSchema,
      s"this streaming DataFrame was built on schema version $builtOn, but schemaLocation $location holds " +
        s"version $newest: build the DataFrame again (spark.readStream...load(), or sd.read_stream) and start " +
        "the query from it",
      Map("builtOn" -> builtOn.toString, "newest" -> newest.toString, "location" -> location)
    )

  def streamNeedsSchemaLocation(): DrillException =
    new DrillException(
      ErrorClasses.StreamNeedsSchemaLocation,
      "a stream without a schema given with .schema(...) needs option 'schemaLocation': a directory where the " +
        "stream keeps its schema versions (for example under the checkpoint: <checkpoint>/_schemas)"
    )

  private def fileEvents(options: Seq[String], reason: String): DrillException =
    new DrillException(
      ErrorClasses.StreamFileEvents,
      s"${options.map(o => s"'$o'").mkString(", ")}: $reason (docs/object-stores.md)",
      Map("options" -> options.mkString(", "), "reason" -> reason)
    )

  def fileEventsNeedQueueUrl(): DrillException =
    fileEvents(
      Seq("fileEvents", "queueUrl"),
      "fileEvents=sqs reads the queue named by option 'queueUrl', which is not set"
    )

  def optionNeedsFileEvents(names: Seq[String]): DrillException =
    fileEvents(names, "these options are for file events: set fileEvents=sqs too, or leave them out")

  def badQueueUrl(url: String, why: String): DrillException =
    fileEvents(
      Seq("queueUrl"),
      s"'$url' is not a queue URL ($why), e.g. https://sqs.us-east-1.amazonaws.com/123456789012/events"
    )

  def fileEventsNeedObjectStore(path: String): DrillException =
    fileEvents(
      Seq("fileEvents"),
      s"fileEvents=sqs reads S3 bucket notifications, so the input must be on S3 (s3a:// or s3://), not $path"
    )

  def sqsClientMissing(missing: String): DrillException =
    fileEvents(
      Seq("fileEvents"),
      s"the AWS SDK's SQS client is not on the classpath ($missing): add the SDK bundle S3A uses " +
        "(software.amazon.awssdk:bundle, beside hadoop-aws), or software.amazon.awssdk:sqs and apache-client"
    )

  def badQueueVisibilityTimeout(millis: Long): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option 'queueVisibilityTimeout' must be from 1s to 12h (SQS's bounds), got $millis ms",
      "queueVisibilityTimeout",
      Some(s"${millis}ms")
    )

  def badBackfillInterval(millis: Long): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option 'backfillInterval' must be a positive duration (1d, 6h), got $millis ms",
      "backfillInterval",
      Some(s"${millis}ms")
    )

  def streamOnePath(paths: Seq[String]): DrillException =
    new DrillException(
      ErrorClasses.StreamOnePath,
      s"a stream reads one path (a directory or a glob), got ${paths.size}: ${paths.mkString(", ")}",
      Map("paths" -> paths.mkString(", "))
    )

  def streamNoFiles(path: String, location: String): DrillException =
    new DrillException(
      ErrorClasses.StreamNoFiles,
      s"no files under $path to discover the stream's schema from: give one with .schema(...), or start the " +
        s"stream once files are there (the schema is then kept in schemaLocation $location)",
      Map("path" -> path, "location" -> location)
    )

  def schemaLocationOfAnotherPath(location: String, ownerPath: String, path: String): DrillException =
    new DrillException(
      ErrorClasses.StreamSchemaLocationOfAnotherPath,
      s"schemaLocation $location belongs to the stream of $ownerPath, not of $path: each input path needs its " +
        "own schemaLocation",
      Map("location" -> location, "ownerPath" -> ownerPath, "path" -> path)
    )

  def streamEvolvesProjection(mode: String): DrillException =
    new DrillException(
      ErrorClasses.StreamEvolvesProjection,
      s"schemaEvolutionMode=$mode adds columns, but option 'project' lists the stream's columns: add them to " +
        "the list (a new DataFrame), or choose none, rescue or failOnNewColumns",
      Map("mode" -> mode)
    )

  def streamEvolvesDefinedSchema(mode: String): DrillException =
    new DrillException(
      ErrorClasses.StreamEvolvesDefinedSchema,
      s"schemaEvolutionMode=$mode evolves a schema the stream keeps in schemaLocation, not one given with " +
        ".schema(...) or read from a drill catalog table: use readStream.format(\"drill\") without .schema(...) " +
        "and set schemaLocation, or choose none, rescue or failOnNewColumns",
      Map("mode" -> mode)
    )

  def streamTableOptions(table: String, options: Seq[String]): DrillException =
    new DrillException(
      ErrorClasses.StreamTableOptions,
      // Concatenated, not interpolated: Scala 2.12 (Spark 3.5) reads no \" inside s"...".
      "readStream.table(\"" + table + "\") streams the catalog table as the catalog discovered it: " +
        options
          .map(o => s"'$o'")
          .mkString(", ") + " would change its columns; set options of discovery on the " +
        "catalog (spark.sql.catalog.drill.<option>), or use readStream.format(\"drill\")...load(path)",
      Map("table" -> table, "options" -> options.mkString(", "))
    )

  /** An IOException, as the version writer's callers catch (a task racing another to the same version). */
  def schemaVersionTaken(dir: String, version: Int): SchemaVersionTakenException =
    new SchemaVersionTakenException(
      s"spark-drill: schema version $version of $dir is already there (another query wrote it): build the " +
        "DataFrame again",
      Map("dir" -> dir, "version" -> version.toString)
    )

  /** `includeExistingFiles` given as `now` to a stream whose state in `dir` was created with `stored`. */
  def includeExistingFilesChanged(now: Boolean, stored: Boolean, dir: String): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"The option includeExistingFiles is $now for this query, but the stream's state in $dir was created " +
        s"with includeExistingFiles=$stored. It cannot change once a stream has started: set it back to " +
        s"$stored, or give the query a new checkpointLocation.",
      "includeExistingFiles",
      Some(now.toString)
    )

  /** A schema version `file` that does not parse. */
  def schemaVersionUnreadable(file: String, cause: Throwable): StreamIOException =
    new StreamIOException(
      ErrorClasses.StreamSchemaVersionUnreadable,
      s"spark-drill: schema version $file is not readable: $cause",
      Map("file" -> file),
      cause
    )

  /** `drill-state` over a path with no stream state under it; `dirName` is the state's own directory name. */
  def streamNoState(path: String, dirName: String): DrillException =
    new DrillException(
      ErrorClasses.StreamNoState,
      s"No spark-drill stream state under $path: give drill-state the query's checkpointLocation (the state " +
        s"is in <checkpointLocation>/sources/<n>/$dirName)",
      Map("path" -> path)
    )

  /** `drill-state` with no path. */
  def streamStateNeedsPath(): DrillException =
    new DrillException(
      ErrorClasses.NoPath,
      "drill-state needs a path: load(<the query's checkpointLocation>)"
    )

  /** `drill-schemas` reads one `schemaLocation`. */
  def schemasOnePath(paths: Seq[String]): DrillException =
    new DrillException(
      ErrorClasses.StreamOnePath,
      s"drill-schemas reads one schemaLocation, got: ${paths.mkString(", ")}",
      Map("paths" -> paths.mkString(", "))
    )

  /** An offset in the checkpoint another source wrote. */
  def notADrillOffset(offset: String): DrillException =
    new DrillException(
      ErrorClasses.StreamBadOffset,
      s"offset '$offset' is not a drill stream's offset: was the checkpoint written by another source?",
      Map("offset" -> offset)
    )

  /** Another query holds the lease `lease` (`holder`: who, and when it last renewed). */
  def streamLeaseHeld(lease: String, holder: String, staleAfterSeconds: Long): StreamStateException =
    new StreamStateException(
      ErrorClasses.StreamLeaseHeld,
      s"Another query is running on this checkpoint: the stream's lease $lease is held by $holder. Stop that " +
        "query first, or give this one another checkpointLocation. (A lease not renewed for " +
        s"$staleAfterSeconds s, or whose process on this host has ended, is taken over.)",
      Map("lease" -> lease, "holder" -> holder)
    )

  /** The lease was stale, but another process took it over first. */
  def streamLeaseTakenOverFirst(lease: String, holder: String): StreamStateException =
    new StreamStateException(
      ErrorClasses.StreamLeaseHeld,
      s"The stream's lease $lease was stale, and another process took it over first: $holder",
      Map("lease" -> lease, "holder" -> holder)
    )

  /** This query lost its lease while running: taken over by `holder`, or deleted (None). */
  def streamLeaseLost(lease: String, holder: Option[String]): StreamStateException =
    new StreamStateException(
      ErrorClasses.StreamLeaseHeld,
      holder.fold(s"the lease $lease was deleted by another process")(h =>
        s"the lease $lease was taken over by $h"
      ),
      Map("lease" -> lease) ++ holder.map("holder" -> _)
    )

  /** `cleanSource=archive` with no `cleanSourceArchiveDir`. */
  def streamNeedsArchiveDir(): DrillException =
    new DrillException(
      ErrorClasses.StreamNeedsArchiveDir,
      "cleanSource=archive needs option 'cleanSourceArchiveDir': the directory read files are moved to, " +
        "keeping their path under the input (or use cleanSource=delete)"
    )

  /** `cleanSourceArchiveDir` `archiveDir` lies under `path`, the stream's input (`of`: "input") or its
    * checkpoint ("checkpoint").
    */
  def streamArchiveDirInside(archiveDir: String, path: String, of: String): DrillException = {
    val why =
      if (of == "input") "the stream would read the archived files again"
      else "deleting the checkpoint would delete the archive, and the state is no place for data"
    new DrillException(
      ErrorClasses.StreamArchiveDirInside,
      s"cleanSourceArchiveDir $archiveDir is under the stream's $of $path: $why. Choose an archive directory " +
        s"outside the $of",
      Map("archiveDir" -> archiveDir, "path" -> path, "of" -> of)
    )
  }
}
