package sparkdrill.formats.excel

import java.io.InputStream
import javax.xml.stream.{XMLStreamConstants, XMLStreamReader}

import scala.collection.mutable

import org.apache.poi.ss.usermodel.BuiltinFormats
import org.apache.poi.util.XMLHelper

/** The workbook's small parts, read with a StAX pull parser (POI's factory: no DTDs, no external entities).
  * POI's own readers of these parts (StylesTable, XSSFRichTextString) go through XMLBeans, which this
  * format never loads: the three facts it needs are a few elements each.
  */
private[excel] object WorkbookParts {

  /** Every shared string, in order: the text of an item's `t` elements, phonetic runs (`rPh`) left out. */
  def sharedStrings(in: InputStream): IndexedSeq[String] = parse(in) { xml =>
    val strings = Vector.newBuilder[String]
    val item = new java.lang.StringBuilder
    var phonetic = 0
    while (xml.hasNext) xml.next() match {
      case XMLStreamConstants.START_ELEMENT =>
        xml.getLocalName match {
          case "si" => item.setLength(0)
          case "rPh" => phonetic += 1
          case "t" if phonetic == 0 => item.append(xml.getElementText)
          case _ =>
        }
      case XMLStreamConstants.END_ELEMENT =>
        xml.getLocalName match {
          case "si" => strings += item.toString
          case "rPh" => phonetic -= 1
          case _ =>
        }
      case _ =>
    }
    strings.result()
  }

  /** The number format of each cell style (`cellXfs`, by index): its id and format code. */
  def styles(in: InputStream): CellStyles = parse(in) { xml =>
    val codes = mutable.HashMap.empty[Int, String]
    val formats = Vector.newBuilder[Int]
    var inCellXfs = false
    while (xml.hasNext) xml.next() match {
      case XMLStreamConstants.START_ELEMENT =>
        xml.getLocalName match {
          case "numFmt" =>
            codes(attribute(xml, "numFmtId").toInt) = Option(attribute(xml, "formatCode")).getOrElse("")
          case "cellXfs" => inCellXfs = true
          case "xf" if inCellXfs => formats += Option(attribute(xml, "numFmtId")).fold(0)(_.toInt)
          case _ =>
        }
      case XMLStreamConstants.END_ELEMENT if xml.getLocalName == "cellXfs" => inCellXfs = false
      case _ =>
    }
    val ids = formats.result()
    new CellStyles(
      ids,
      ids.map(id => codes.getOrElse(id, Option(BuiltinFormats.getBuiltinFormat(id)).getOrElse("")))
    )
  }

  /** Whether the workbook counts dates from 1904 (`workbookPr date1904`, Excel for Mac's old default). */
  def date1904(in: InputStream): Boolean = parse(in) { xml =>
    var found = false
    var done = false
    while (!done && xml.hasNext) xml.next() match {
      case XMLStreamConstants.START_ELEMENT if xml.getLocalName == "workbookPr" =>
        found = Option(attribute(xml, "date1904")).exists(v => v == "1" || v.equalsIgnoreCase("true"))
        done = true
      case XMLStreamConstants.START_ELEMENT if xml.getLocalName == "sheets" => done = true
      case _ =>
    }
    found
  }

  /** An attribute by local name (any namespace), or null. */
  def attribute(xml: XMLStreamReader, name: String): String = {
    var i = 0
    while (i < xml.getAttributeCount) {
      if (xml.getAttributeLocalName(i) == name) return xml.getAttributeValue(i)
      i += 1
    }
    null
  }

  def reader(in: InputStream): XMLStreamReader = XMLHelper.newXMLInputFactory().createXMLStreamReader(in)

  private def parse[T](in: InputStream)(body: XMLStreamReader => T): T =
    try {
      val xml = reader(in)
      try body(xml)
      finally xml.close()
    } finally in.close()
}
