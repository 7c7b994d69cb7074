package sparkdrill.formats.excel

import org.slf4j.LoggerFactory

import sparkdrill.errors.ErrorContext
import sparkdrill.reader.{CommonOptions, ParseMode, ReaderOptions}

/** A file that is not a readable workbook (not a zip, a damaged archive, an encrypted workbook, a zip bomb)
  * is a malformed file (SPEC 13): under FAILFAST an error naming it, else skipped with a warning. Under
  * FAILFAST `ignoreCorruptFiles` still skips it, as the scan skips any corrupt file: the reader's error has the
  * [[Workbook.Unreadable]] (an IOException) as its cause, and discovery throws it as it is (the scan names the
  * file, SPARK_DRILL_UNREADABLE_FILE: discovery passes a ScanException through unskipped).
  */
private[excel] object BadWorkbook {
  private val log = LoggerFactory.getLogger(getClass)

  /** None (the file gives no rows or columns), or throws per `mode`. */
  def apply[T](
      e: Workbook.Unreadable,
      errors: ErrorContext,
      options: ReaderOptions,
      discovering: Boolean = false
  ): Option[T] = {
    val mode = CommonOptions.parseMode(options)
    if (mode == ParseMode.FailFast && discovering) throw e
    if (mode == ParseMode.FailFast) {
      val error = errors.error(s"malformed file: ${e.reason}", option = ParseMode.advice(mode))
      error.initCause(e)
      throw error
    }
    log.warn(s"${errors.path}: skipped, ${e.reason} (mode=${mode.name})")
    None
  }
}
