package sparkdrill.formats.json

import com.fasterxml.jackson.core.{JsonProcessingException, JsonToken}
import org.apache.spark.sql.types.StructType

import sparkdrill.reader.{CommonOptions, DiscoveryContext, ParseMode}

/** Discovery of one JSON file (SPEC 5): the schema of its first `sampleRows` records, each top-level object's
  * members joined into columns and any other top-level value into `value`, by [[JsonSampler]]. A broken
  * record is skipped (the sample goes on at the next line that starts like a record), unless the mode is
  * FAILFAST or it is inside a root array, where the read would fail on it too.
  */
private[json] final class JsonDiscovery(context: DiscoveryContext) {
  private val options = context.options
  private val mode = CommonOptions.parseMode(options)
  // Jackson reads the sample (the byte reader is for reads); Hadoop's streams hand out a few KiB per read.
  private val records = new JsonRecords(
    new java.io.BufferedInputStream(context.file.open(), 1 << 16),
    options(JsonOptions.MaxRecordBytes),
    context.errorContext,
    readsBytes = false
  )
  private def parser = records.parser

  def schema: StructType =
    try {
      val sampler = JsonSampler.forOptions(options)
      val limit = context.sampleRows
      var n = 0
      var more = true
      while (more && n < limit)
        more =
          try
            records.next() && {
              if (parser.currentToken() == JsonToken.START_OBJECT) sampler.add(parser, readWhole())
              else sampler.addValue(parser, readWhole())
              n += 1
              true
            }
          catch { case e: JsonProcessingException => skipBroken(e) }
      sampler.schema
    } finally records.close()

  // A record counts once it is whole: a top-level string finished (Jackson reads one lazily) and its text
  // well-formed (JsonRecords.checkText); else it is broken, before anything of it joins the sample.
  private def readWhole(): Unit = {
    if (parser.currentToken() == JsonToken.VALUE_STRING) parser.finishToken()
    records.checkText()
  }

  private def skipBroken(e: JsonProcessingException): Boolean = {
    if (mode == ParseMode.FailFast) throw JsonMalformed.error(records, context.errorContext, e, mode, true)
    if (records.inRootArray) return false // the read fails on it, under every mode
    records.toBroken()
    records.restartAt(records.nextRecordStart)
  }
}
