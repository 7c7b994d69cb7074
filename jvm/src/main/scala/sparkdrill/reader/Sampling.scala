package sparkdrill.reader

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types.{StringType, StructType}

import sparkdrill.loader.ResultSetLoader

/** Discovery through a format's reader ([[DiscoveryContext.throughReader]]), the same for every format that
  * uses it: the early schema the reader declared, with each string column typed by the format from up to
  * `limit` sampled rows.
  */
object Sampling {

  def schemaOf(
      plugin: FormatPlugin,
      options: ReaderOptions,
      reader: BatchReader,
      loader: Option[ResultSetLoader],
      limit: Int
  ): StructType =
    loader match {
      case None => new StructType()
      case Some(l) if limit <= 0 => l.schema
      case Some(l) => typeStrings(plugin, options, reader, l, limit)
    }

  // Columns may arrive late (a reader adds them while it reads), so samples are kept by name and the
  // loader's schema is read once the sample is done.
  private def typeStrings(
      plugin: FormatPlugin,
      options: ReaderOptions,
      reader: BatchReader,
      loader: ResultSetLoader,
      limit: Int
  ): StructType = {
    val samples = scala.collection.mutable.HashMap.empty[String, ArrayBuffer[String]]
    var rows = 0
    var more = true
    while (more && rows < limit) {
      more = reader.next()
      val batch = loader.harvest()
      val projected = loader.projectedSchema
      var r = 0
      while (r < batch.numRows && rows < limit) {
        projected.fields.indices.foreach { c =>
          val v = batch.column(c)
          if (!v.isNullAt(r) && projected(c).dataType == StringType)
            samples.getOrElseUpdate(projected(c).name, ArrayBuffer.empty) += v.getUTF8String(r).toString
        }
        r += 1
        rows += 1
      }
    }
    StructType(loader.schema.fields.map { f =>
      if (f.dataType != StringType) f
      else f.copy(dataType = plugin.inferType(samples.getOrElse(f.name, ArrayBuffer.empty).iterator, options))
    })
  }
}
