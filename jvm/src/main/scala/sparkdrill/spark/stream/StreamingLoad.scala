package sparkdrill.spark.stream

/** Whether the `load()` being answered is `spark.readStream`'s.
  *
  * Spark asks a TableProvider for its schema and table the same way for a batch and a streaming read, and tells
  * it of a stream only at `start()` (`Scan.toMicroBatchStream`), after the DataFrame's schema is fixed. A stream
  * needs another schema (SPEC 11: stored versions, `includeColumns`) and refuses other options, so the source
  * looks at who is calling: `DataStreamReader.load` (the classic one, also under Spark Connect's server, in
  * `org.apache.spark.sql.streaming` on 3.5 and `org.apache.spark.sql.classic` on 4.x).
  */
private[sparkdrill] object StreamingLoad {
  def active: Boolean =
    Thread.currentThread.getStackTrace.exists { frame =>
      frame.getClassName.startsWith("org.apache.spark.sql.") &&
      frame.getClassName.endsWith(".DataStreamReader") &&
      frame.getMethodName.startsWith("load")
    }
}
