package sparkdrill.formats.json

import org.apache.spark.sql.DataFrame
import org.apache.spark.sql.functions.{col, expr}
import org.apache.spark.sql.types.VariantType
import org.apache.spark.unsafe.types.VariantVal
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** SPEC 14 on Spark 4: VARIANTs written by the JSON reader (its byte path and Jackson's, `jackson-json`) and
  * by the text readers, byte for byte what Spark's own `parse_json` makes of the same text.
  */
class VariantSuite extends AnyFunSuite with LocalSpark with TestFiles {

  // Shapes parse_json takes, one record per line: every scalar kind and number form, nesting, escapes,
  // Unicode, and objects and arrays past the one-byte sizes and offsets of the encoding.
  private val shapes: Seq[String] = Seq(
    """{"a":1,"b":-2,"c":300,"d":70000,"e":5000000000,"f":-9223372036854775808}""",
    """{"big":123456789012345678901234567890,"huge":1234567890123456789012345678901234567890123}""",
    """{"n19":9223372036854775807,"o19":9223372036854775808,"neg19":-9223372036854775809}""",
    """{"d1":1.50,"d2":-0.0,"d3":0.1,"d4":-12.345678901234567890123,"d5":0.00000000000000000000000000000000000000012}""",
    """{"e1":1e10,"e2":1.5E-7,"e3":-2e+3,"e4":0e0}""",
    """{"s":"plain","esc":"a\nb\"c\\d\/e\tf","u":"\u00e9\ud83d\ude00","raw":"éü漢字😀","empty":""}""",
    """{"t":true,"f":false,"nil":null,"o":{},"arr":[]}""",
    """{"nested":{"x":[1,{"y":[2,3,{"z":null}]},"w"],"v":{"k":{"j":{"i":1}}}}}""",
    """{"zed":1,"alpha":2,"Mid":3,"ümlaut":4,"😀":5,"":6}""",
    """{"long":"""" + ("x" * 300) + """","mixed":[1,"two",3.0,true,null,{"a":[]},[[]]]}""",
    "{" + (1 to 300).map(i => s""""k$i":$i""").mkString(",") + "}",
    """{"many":[""" + (1 to 400).map(_.toString).mkString(",") + "]}",
    """{"deep":""" + ("[" * 40) + "1" + ("]" * 40) + "}",
    """{"ws" : { "a" : [ 1 , 2 ] } , "b" : "c" }"""
  )

  private def lines(texts: Seq[String]): String = texts.mkString("", "\n", "\n")

  // Spark's own: parse_json of each line, by line number.
  private def sparkVariants(dir: String): Map[Long, VariantVal] =
    spark.read
      .text(dir)
      .withColumn("line", expr("monotonically_increasing_id() + 1"))
      .select(col("line"), expr("parse_json(value)").as("v"))
      .collect()
      .map(r => r.getLong(0) -> r.getAs[VariantVal](1))
      .toMap

  private def drillVariants(df: DataFrame): Map[Long, VariantVal] =
    df.selectExpr("_line", "v").collect().map(r => r.getLong(0) -> r.getAs[VariantVal](1)).toMap

  private def assertSameBytes(ours: Map[Long, VariantVal], theirs: Map[Long, VariantVal]): Unit = {
    assert(ours.keySet == theirs.keySet)
    ours.foreach { case (line, v) =>
      val t = theirs(line)
      withClue(s"line $line: ${v.toString} against ${t.toString}") {
        assert(v.getValue.sameElements(t.getValue))
        assert(v.getMetadata.sameElements(t.getMetadata))
      }
    }
  }

  for (format <- Seq("json", JacksonJsonFormat.Name))
    test(s"singleVariantColumn ($format): each record is parse_json's VARIANT, byte for byte") {
      val dir = write("in/data.json" -> lines(shapes)).resolve("in").toString
      val df =
        spark.read.format("drill").option("format", format).option("singleVariantColumn", "v").load(dir)
      assert(df.schema("v").dataType == VariantType)
      assert(df.schema.fieldNames.toSeq == Seq("v"))
      assertSameBytes(drillVariants(df), sparkVariants(dir))
    }

  test("singleVariantColumn: a top-level scalar or array is a record too, and blank lines are none") {
    val dir = write("in/x.json" -> "1\n\n\"s\"\n[1,2]\n{\"a\":null}\nnull\n").resolve("in").toString
    val df = spark.read.format("drill").option("singleVariantColumn", "v").load(dir)
    val got = df.selectExpr("_line", "to_json(v)").collect().map(r => r.getLong(0) -> r.getString(1)).toSeq
    assert(
      got.sortBy(_._1) == Seq(1L -> "1", 3L -> "\"s\"", 4L -> "[1,2]", 5L -> "{\"a\":null}", 6L -> "null")
    )
  }

  test("singleVariantColumn: partition and hidden columns beside it, and no file opened to plan") {
    val root = write("in/2024/a.json" -> "{\"a\":1}\n", "in/2025/b.json" -> "{\"b\":[2]}\n")
    val df = spark.read.format("drill").option("singleVariantColumn", "v").load(root.resolve("in").toString)
    assert(df.schema.fieldNames.toSeq == Seq("v", "dir0"))
    val got = df
      .selectExpr("dir0", "filename", "to_json(v)")
      .collect()
      .map(r => (r.getString(0), r.getString(1), r.getString(2)))
    assert(got.sortBy(_._1).toSeq == Seq(("2024", "a.json", "{\"a\":1}"), ("2025", "b.json", "{\"b\":[2]}")))
  }

  test("singleVariantColumn: count(*) and a projection without the column") {
    val dir = write("in/x.json" -> lines(shapes)).resolve("in").toString
    val df = spark.read.format("drill").option("singleVariantColumn", "v").load(dir)
    assert(df.count() == shapes.size)
    assert(df.selectExpr("filename").collect().length == shapes.size)
  }

  for (format <- Seq("json", JacksonJsonFormat.Name)) {
    test(
      s"a key twice ($format): malformed under PERMISSIVE (null, its text kept), an error under FAILFAST"
    ) {
      val dir = write("in/x.json" -> "{\"a\":1}\n{\"a\":1,\"b\":{\"c\":1,\"c\":2}}\n{\"z\":3}\n")
        .resolve("in")
        .toString
      val read = spark.read
        .format("drill")
        .option("format", format)
        .option("singleVariantColumn", "v")
        .option("columnNameOfCorruptRecord", "_corrupt")
      val rows = read.load(dir).selectExpr("_line", "to_json(v)", "_corrupt").collect().sortBy(_.getLong(0))
      assert(
        rows.map(r => (r.getString(1), r.getString(2))).toSeq == Seq(
          ("{\"a\":1}", null),
          (null, "{\"a\":1,\"b\":{\"c\":1,\"c\":2}}"),
          ("{\"z\":3}", null)
        )
      )
      val e =
        intercept[Exception](read.option("mode", "FAILFAST").load(dir).selectExpr("to_json(v)").collect())
      val message =
        Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString("\n")
      assert(
        message.contains("x.json") && message.contains("line 2") && message.contains("'c' twice"),
        message
      )
    }

    test(s"a key twice ($format) with spark.sql.variant.allowDuplicateKeys: the last one, as parse_json") {
      val dir = write("in/x.json" -> "{\"a\":1,\"b\":{\"c\":1,\"c\":[2]},\"a\":3}\n").resolve("in").toString
      spark.conf.set("spark.sql.variant.allowDuplicateKeys", "true")
      try {
        val df =
          spark.read.format("drill").option("format", format).option("singleVariantColumn", "v").load(dir)
        assertSameBytes(drillVariants(df), sparkVariants(dir))
        assert(df.selectExpr("to_json(v)").head().getString(0) == "{\"a\":3,\"b\":{\"c\":[2]}}")
      } finally spark.conf.unset("spark.sql.variant.allowDuplicateKeys")
    }
  }

  test("broken JSON under singleVariantColumn: a malformed record, per mode, and reading goes on") {
    val dir = write("in/x.json" -> "{\"a\":1}\n{\"a\":\n{\"b\":2}\n").resolve("in").toString
    val rows = spark.read
      .format("drill")
      .option("singleVariantColumn", "v")
      .option("columnNameOfCorruptRecord", "_corrupt")
      .load(dir)
      .selectExpr("to_json(v)", "_corrupt")
      .collect()
      .map(r => (r.getString(0), r.getString(1)))
    assert(rows.toSeq.contains((null, "{\"a\":")) && rows.toSeq.contains(("{\"b\":2}", null)), rows.toSeq)
  }

  for (format <- Seq("json", JacksonJsonFormat.Name)) {
    test(s"a VARIANT member in providedSchema ($format), at depth 1: its value whatever its shape") {
      val members =
        Seq("{\"x\":[1,{\"y\":2.50}]}", "[1,2]", "7", "\"s\"", "null", "1e3", "12345678901234567890123")
      val records = members.zipWithIndex.map { case (m, i) =>
        s"""{"id":$i,"attrs":$m,"other":"o"}"""
      } :+ "{\"id\":99}"
      val root = write("in/x.json" -> lines(records), "members/m.json" -> lines(members :+ "null"))
      val df = spark.read
        .format("drill")
        .option("format", format)
        .option("providedSchema", "id BIGINT, attrs VARIANT")
        .load(root.resolve("in").toString)
      assert(df.schema("attrs").dataType == VariantType)
      val ours =
        df.selectExpr("_line", "attrs").collect().map(r => r.getLong(0) -> r.getAs[VariantVal](1)).toMap
      val theirs = sparkVariants(root.resolve("members").toString)
      assertSameBytes(ours - records.size.toLong, theirs - records.size.toLong)
      assert(ours(records.size.toLong) == null) // no member: SQL NULL, not the variant null
      assert(df.selectExpr("id").collect().length == records.size) // projection without it
    }

    test(s"a VARIANT member at depth 3 ($format), with projection, and in a defined schema") {
      val text = lines(
        Seq(
          """{"id":1,"a":{"b":{"c":{"p":[1,2],"q":"r"},"d":4}}}""",
          """{"id":2,"a":{"b":{"c":[{"n":null}],"d":5}}}""",
          """{"id":3,"a":{"b":{"d":6}}}"""
        )
      )
      val dir = write("in/x.json" -> text).resolve("in").toString
      val provided = spark.read
        .format("drill")
        .option("format", format)
        .option("providedSchema", "id BIGINT, a STRUCT<b: STRUCT<c: VARIANT, d: INT>>")
        .load(dir)
      val expected = Seq("{\"p\":[1,2],\"q\":\"r\"}", "[{\"n\":null}]", null)
      assert(provided.selectExpr("to_json(a.b.c)").collect().map(_.getString(0)).toSeq == expected)
      assert(provided.selectExpr("a.b.d").collect().map(_.getInt(0)).toSeq == Seq(4, 5, 6))
      val defined = spark.read
        .format("drill")
        .option("format", format)
        .schema("id BIGINT, a STRUCT<b: STRUCT<c: VARIANT, d: INT>>")
        .load(dir)
      assert(defined.selectExpr("to_json(a.b.c)").collect().map(_.getString(0)).toSeq == expected)
      assert(
        defined.selectExpr("variant_get(a.b.c, '$.q', 'string')").collect().map(_.getString(0)).toSeq ==
          Seq("r", null, null)
      )
    }
  }

  test("rescuedDataType=variant: the rescued-data object as a VARIANT, the same content as the string") {
    val dir = write("in/x.json" -> "{\"id\":1,\"extra\":{\"k\":[1.5]},\"n\":\"x\"}\n{\"id\":2}\n")
      .resolve("in")
      .toString
    def read(kind: String): DataFrame = spark.read
      .format("drill")
      .option("providedSchema", "id BIGINT, n INT")
      .option("strictSchema", "true")
      .option("rescuedDataColumn", "_rescued")
      .option("rescuedDataType", kind)
      .load(dir)
    val variant = read("variant")
    assert(variant.schema("_rescued").dataType == VariantType)
    val asVariant =
      variant.selectExpr("id", "to_json(_rescued)").collect().map(r => r.getLong(0) -> r.getString(1))
    val asString = read("string")
      .selectExpr("id", "to_json(parse_json(_rescued))")
      .collect()
      .map(r => r.getLong(0) -> r.getString(1))
    assert(asVariant.toMap == asString.toMap)
    assert(asVariant.toMap.apply(1L).contains("\"extra\":{\"k\":[1.5]}"))
    assert(asVariant.toMap.apply(2L) == null)
  }

  test("a bad rescuedDataType names the option and its values") {
    val dir = write("in/x.json" -> "{\"id\":1}\n").resolve("in").toString
    val e = intercept[Exception](
      spark.read.format("drill").option("rescuedDataType", "xml").load(dir).collect()
    )
    assert(e.getMessage.contains("rescuedDataType") && e.getMessage.contains("variant"), e.getMessage)
  }

  test("singleVariantColumn over CSV: an object of the header's fields, strings or typed by inferTypes") {
    val dir =
      write("in/x.csv" -> "id,name,score,day\n1,ann,2.5,2024-01-31\n2,,x,\"\"\n").resolve("in").toString
    def read(infer: Boolean, what: String, header: Boolean = true): Seq[String] = spark.read
      .format("drill")
      .option("singleVariantColumn", "v")
      .option("header", header.toString)
      .option("inferTypes", infer.toString)
      .load(dir)
      .selectExpr("_line", what)
      .collect()
      .sortBy(_.getLong(0))
      .map(_.getString(1))
      .toSeq
    // An unquoted empty field is null, a quoted one "", as in a string column.
    assert(
      read(infer = false, "to_json(v)") == Seq(
        """{"day":"2024-01-31","id":"1","name":"ann","score":"2.5"}""",
        """{"day":"","id":"2","name":null,"score":"x"}"""
      )
    )
    assert(
      read(infer = true, "to_json(v)") == Seq(
        """{"day":"2024-01-31","id":1,"name":"ann","score":2.5}""",
        """{"day":"","id":2,"name":null,"score":"x"}"""
      )
    )
    assert(
      read(
        infer = true,
        "schema_of_variant(v)"
      ).head == "OBJECT<day: DATE, id: BIGINT, name: STRING, score: DOUBLE>"
    )
    // Without a header, the fields are named by position.
    assert(
      read(infer = false, "to_json(v)", header = false).head ==
        """{"column_1":"id","column_2":"name","column_3":"score","column_4":"day"}"""
    )
  }

  test("singleVariantColumn over CSV: a record the parser copies out of its buffer keeps every field") {
    // A doubled quote or a quoted line end is unescaped into a copy: every field must be copied, though no
    // column of the header's is read (the parser once copied only the fields of read columns: none here).
    val dir = write("in/q.csv" -> "a,b,c\n\"x\"\"y\",z,\"p\nq\"\nplain,2,3\n").resolve("in").toString
    val got = spark.read
      .format("drill")
      .option("singleVariantColumn", "v")
      .option("header", "true")
      .load(dir)
      .selectExpr("_line", "to_json(v)")
      .collect()
      .sortBy(_.getLong(0))
      .map(_.getString(1))
      .toSeq
    assert(got == Seq("""{"a":"x\"y","b":"z","c":"p\nq"}""", """{"a":"plain","b":"2","c":"3"}"""))
  }

  test("singleVariantColumn over a log: an object of the pattern's groups") {
    val dir =
      write("in/app.log" -> "2024-01-31 INFO started 12\n2024-02-01 WARN slow 7\n").resolve("in").toString
    val got = spark.read
      .format("drill")
      .option("format", "log")
      .option("regex", "(?<day>\\S+) (?<level>\\S+) (?<what>\\S+) (?<n>\\d+)")
      .option("singleVariantColumn", "v")
      .option("inferTypes", "true")
      .load(dir)
      .selectExpr("_line", "to_json(v)", "variant_get(v, '$.n', 'int')")
      .collect()
      .sortBy(_.getLong(0))
      .map(r => (r.getString(1), r.getInt(2)))
      .toSeq
    assert(
      got == Seq(
        ("""{"day":"2024-01-31","level":"INFO","n":12,"what":"started"}""", 12),
        ("""{"day":"2024-02-01","level":"WARN","n":7,"what":"slow"}""", 7)
      )
    )
  }

  test("singleVariantColumn takes no providedSchema; a VARIANT column of text fields is refused by name") {
    val root = write("in/x.json" -> "{\"a\":1}\n", "csv/x.csv" -> "a\n1\n")
    val single = intercept[Exception](
      spark.read
        .format("drill")
        .option("singleVariantColumn", "v")
        .option("providedSchema", "a INT")
        .load(root.resolve("in").toString)
        .collect()
    )
    assert(single.getMessage.contains("singleVariantColumn") && single.getMessage.contains("providedSchema"))
    val text = intercept[Exception](
      spark.read
        .format("drill")
        .option("header", "true")
        .option("providedSchema", "a VARIANT")
        .load(root.resolve("csv").toString)
        .collect()
    )
    val message =
      Iterator.iterate[Throwable](text)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString("\n")
    assert(message.contains("column 'a' is a VARIANT"), message)
  }

  for (memory <- Seq("offHeap", "onHeap"))
    test(s"VARIANT values past the batch's byte limit move whole to the next batch ($memory)") {
      // Records of 200 to 2,000 bytes under a 1 KiB limit: most batches end on a value that does not fit.
      val records = (1 to 300).map(i => s"""{"i":$i,"pad":"${"x" * (200 + (i * 37) % 1800)}","tail":[$i]}""")
      val dir = write("in/x.json" -> lines(records)).resolve("in").toString
      val df = spark.read
        .format("drill")
        .option("singleVariantColumn", "v")
        .option("batchBytes", "1024")
        .option("batchRows", "7")
        .option("memoryMode", memory)
        .load(dir)
      assertSameBytes(drillVariants(df), sparkVariants(dir))
      val members = spark.read
        .format("drill")
        .option("providedSchema", "i INT, pad VARIANT, tail VARIANT")
        .option("batchBytes", "1024")
        .option("memoryMode", memory)
        .load(dir)
        .selectExpr("i", "variant_get(tail, '$[0]', 'int')", "length(variant_get(pad, '$', 'string'))")
        .collect()
      assert(
        members.map(r => (r.getInt(0), r.getInt(1), r.getInt(2))).sortBy(_._1).toSeq ==
          (1 to 300).map(i => (i, i, 200 + (i * 37) % 1800))
      )
    }
}
