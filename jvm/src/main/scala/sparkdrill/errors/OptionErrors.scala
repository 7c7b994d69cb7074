package sparkdrill.errors

/** An option the user gave that is unknown, has no meaning here, or whose value is wrong. */
trait OptionErrors {

  def unknownOption(name: String, nearest: Option[String]): OptionException = {
    val hint = nearest.map(n => s"; did you mean $n?").getOrElse("")
    new OptionException(
      ErrorClasses.UnknownOption,
      s"unknown option '$name'$hint (docs/options.md lists every option)",
      name
    )
  }

  /** An option of Spark's own readers that has no counterpart here, `why` saying what to use instead. */
  def sparkOptionWithoutCounterpart(name: String, why: String): OptionException =
    new OptionException(
      ErrorClasses.UnsupportedOption,
      s"option '$name' of Spark's own reader has no counterpart here: $why",
      name
    )

  def recursiveFileLookupOff(option: String): OptionException =
    new OptionException(
      ErrorClasses.UnsupportedOption,
      "option 'recursiveFileLookup=false' is not supported: directories are always read " +
        "recursively (use pathGlobFilter or a glob path to choose files)",
      option,
      Some("false")
    )

  /** Options of one kind of read given to the other: `streaming` when a stream was given batch-only ones. */
  def optionsOfTheOtherRead(names: Seq[String], streaming: Boolean): OptionException = {
    val (what, where) =
      if (streaming) ("only a batch read takes", "spark.read")
      else ("only a stream takes", "spark.readStream")
    val these = if (names.size == 1) "this option" else "these options"
    new OptionException(
      ErrorClasses.UnsupportedOption,
      // Concatenated, not interpolated: Scala 2.12 (Spark 3.5) reads no \" inside s"...".
      s"${names.map(n => s"'$n'").mkString(", ")}: $what $these " + "(use " + where + ".format(\"drill\"))",
      names.mkString(", ")
    )
  }

  /** A value that does not parse as the option takes it (`takes`: "a number", "true or false", ...). */
  def badOptionValue(option: String, value: String, takes: String): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option '$option' must be $takes, got '$value'",
      option,
      Some(value)
    )

  def optionBelowOne(option: String, value: Long): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option '$option' must be at least 1, got $value",
      option,
      Some(value.toString)
    )

  def badTimestampOption(option: String, value: String, cause: Throwable): OptionException = {
    val e = new OptionException(
      ErrorClasses.BadOptionValue,
      s"option '$option' must be a timestamp like 2024-01-31T12:00:00, got '$value'",
      option,
      Some(value)
    )
    e.initCause(cause)
    e
  }

  /** Two spellings (`name`, `otherName`) of the option `canonical` with different values. */
  def optionSpelledTwice(
      otherName: String,
      otherValue: String,
      name: String,
      value: String,
      canonical: String
  ): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"options '$otherName' and '$name' are the same option '$canonical' but have " +
        s"different values ('$otherValue', '$value')",
      name,
      Some(value)
    )

  def unknownFormat(name: String, known: Seq[String]): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"unknown format '$name' (option 'format'); known formats: ${known.sorted.mkString(", ")}",
      "format",
      Some(name)
    )

  def logNeedsAPattern(): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      "format=log needs the option regex (a pattern with named groups) or logPattern (common or combined)",
      "regex"
    )

  def logPatternTwice(): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      "format=log takes one of the options regex and logPattern, not both",
      "logPattern"
    )

  /** The option `regex` does not compile or names no usable group; `reason` shows where. */
  def badLogRegex(reason: String, regex: String): OptionException =
    new OptionException(ErrorClasses.BadOptionValue, reason, "regex", Some(regex))

  /** The option `providedSchema` does not parse or defines something a table cannot have. */
  def badProvidedSchema(reason: String): SchemaException =
    new SchemaException(reason, ErrorClasses.BadOptionValue, Some("providedSchema"))

  /** The option `project` does not parse; `position` is 0-based in `list`. */
  def projectionSyntax(reason: String, list: String, position: Int): ProjectionException =
    new ProjectionException(reason, list, position)

  /** `includeColumns` names a column that is not one of the hidden (implicit) columns `allowed`. */
  def includeColumnsNotHidden(name: String, allowed: Seq[String]): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option 'includeColumns' names '$name', which is not a hidden column; it takes " + allowed.mkString(
        ", "
      ),
      "includeColumns",
      Some(name)
    )

  /** `includeColumns` names a hidden column whose name the stream's schema already has. */
  def includeColumnsClash(name: String): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option 'includeColumns' names '$name', but the stream's schema has a column of that name",
      "includeColumns",
      Some(name)
    )

  def badMaxFilesPerTrigger(value: Int): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option 'maxFilesPerTrigger' must be at least 1, got $value",
      "maxFilesPerTrigger",
      Some(value.toString)
    )

  /** A VARIANT asked of a Spark that has no such type (3.5): `option` and `value` say where it was asked. */
  def variantNeedsSpark4(option: String, value: String, sparkVersion: String): OptionException =
    new OptionException(
      ErrorClasses.UnsupportedOption,
      s"option '$option' ('$value') asks for a VARIANT, which Spark has from Spark 4.0 on; this is Spark " +
        sparkVersion,
      option,
      Some(value)
    )

  /** `singleVariantColumn` with an option that types columns of its own (`providedSchema`). */
  def singleVariantWith(option: String): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"option 'singleVariantColumn' makes each record one VARIANT, so it takes no '$option' (a member's " +
        "type is read from the VARIANT with variant_get)",
      option
    )

  /** A VARIANT column where the format's values are text: only JSON members can be VARIANTs. */
  def variantOfText(column: String): OptionException =
    new OptionException(
      ErrorClasses.BadOptionValue,
      s"column '$column' is a VARIANT, but this format's fields are text: a VARIANT column takes a JSON " +
        "member (use singleVariantColumn for a whole record, or parse_json over a string column)",
      "providedSchema",
      Some(column)
    )
}
