package sparkdrill.formats.text

import org.scalatest.funsuite.AnyFunSuite

class HeaderNamesSuite extends AnyFunSuite {
  test("csvh_invalid_header_names: trimmed, blank -> column_N, duplicates _2, _3 case-insensitively") {
    val header = Seq("$", "", "9b", "c", "c", "c_2", " d ", "C")
    assert(HeaderNames.clean(header) == Seq("$", "column_2", "9b", "c", "c_2", "c_2_2", "d", "C_3"))
  }

  test("a,A gives a,A_2 and blanks count their 1-based position") {
    assert(HeaderNames.clean(Seq("a", "A", " ", "a")) == Seq("a", "A_2", "column_3", "a_3"))
  }

  test("a blank that collides with a real column_N is de-duplicated too") {
    assert(HeaderNames.clean(Seq("column_2", "")) == Seq("column_2", "column_2_2"))
  }
}
