package sparkdrill.formats.text

import org.apache.spark.sql.types.StructType

import sparkdrill.reader.{CommonOptions, DiscoveryContext, FormatPlugin, ParseMode, TextSamples}

/** Discovery of one delimited text file ([[FormatPlugin.discover]]), by its own code rather than a mode of
  * the reader: with a header, its names, each a string, or with `inferTypes` typed from the first
  * `sampleRows` records; without one, the `columns` array. The records sampled are those a read would keep:
  * a record whose quote is never closed fails discovery under FAILFAST, counts as a (null) row under
  * PERMISSIVE and is skipped under DROPMALFORMED.
  */
private[text] object TextDiscovery {

  def schemaOf(context: DiscoveryContext, settings: CsvSettings, plugin: FormatPlugin): StructType = {
    val parser = new CsvParser(context.file.open(), settings, 0L, 1L)
    if (settings.skipFirstLine) parser.skipLine()
    if (!settings.header) {
      sample(context, parser, None)
      CsvRecords.ColumnsSchema
    } else {
      val header = TextHeader.read(parser, context.errorContext)
      if (context.sampleRows <= 0 || header.isEmpty) header
      else {
        val samples = new TextSamples(header, context.options)
        sample(context, parser, Some(samples))
        samples.schema(plugin)
      }
    }
  }

  // Reads up to `sampleRows` records as a read would count them, keeping each header field's value.
  private def sample(context: DiscoveryContext, parser: CsvParser, samples: Option[TextSamples]): Unit = {
    val mode = CommonOptions.parseMode(context.options)
    val width = samples.fold(0)(_.width)
    var rows = 0
    while (rows < context.sampleRows && parser.next())
      if (!parser.unterminatedQuote) {
        samples.foreach { s =>
          val n = math.min(parser.fieldCount, width)
          var i = 0
          while (i < n) {
            s.add(i, parser.bytes, parser.start(i), parser.fieldLength(i), parser.quoted(i)); i += 1
          }
        }
        rows += 1
      } else if (mode == ParseMode.FailFast)
        throw TextHeader.unclosedQuote(parser, context.errorContext, parser.recordLine, mode)
      else if (mode == ParseMode.Permissive) rows += 1
  }
}
