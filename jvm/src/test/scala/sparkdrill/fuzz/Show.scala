package sparkdrill.fuzz

/** Bytes as a failure message shows them, so that a failing input can be pasted back: printable ASCII as it
  * is, `\n`, `\r`, `\t`, `\\` escaped, every other byte as `\xNN`.
  */
object Show {
  def bytes(data: Array[Byte]): String = {
    val sb = new StringBuilder("\"")
    data.foreach { b =>
      (b & 0xff).toChar match {
        case '\n' => sb.append("\\n")
        case '\r' => sb.append("\\r")
        case '\t' => sb.append("\\t")
        case '\\' => sb.append("\\\\")
        case '"' => sb.append("\\\"")
        case c if c >= 0x20 && c < 0x7f => sb.append(c)
        case c => sb.append(f"\\x${c.toInt}%02X")
      }
    }
    sb.append('"').toString
  }

  def char(c: Char): String = bytes(c.toString.getBytes(java.nio.charset.StandardCharsets.UTF_8))
}
