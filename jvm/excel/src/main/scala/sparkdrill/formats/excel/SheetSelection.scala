package sparkdrill.formats.excel

import java.util.Locale
import java.util.regex.Pattern

/** Which sheets of a workbook are read (SPEC 13): the `sheet` option's name or glob (`*`, `?`; names compare
  * ignoring case, as Excel's do), else the sheet `dataAddress` names, else the first sheet.
  */
private[excel] final case class SheetSelection(pattern: Option[String]) {
  private val regex: Option[Pattern] = pattern.map { p =>
    val quoted = p.split("((?<=[*?])|(?=[*?]))").map {
      case "*" => ".*"
      case "?" => "."
      case part => Pattern.quote(part)
    }
    Pattern.compile(quoted.mkString, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)
  }

  /** The selected names among `names` (in workbook order). */
  def select(names: Seq[String]): Seq[String] = regex match {
    case None => names.take(1)
    case Some(r) => names.filter(n => r.matcher(n).matches())
  }

  /** Whether the pattern names one sheet (no glob): a workbook without it is worth a warning. */
  def isName: Boolean = pattern.exists(p => !p.contains('*') && !p.contains('?'))
}

private[excel] object SheetSelection {
  def of(sheet: Option[String], address: DataAddress): SheetSelection =
    SheetSelection(sheet.orElse(address.sheet))

  def sameName(a: String, b: String): Boolean = a.toLowerCase(Locale.ROOT) == b.toLowerCase(Locale.ROOT)
}
