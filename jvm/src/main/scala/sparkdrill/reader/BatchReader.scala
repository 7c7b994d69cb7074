package sparkdrill.reader

import org.apache.spark.sql.types.StructType

/** Reads one file (or split) into the loader's writers. */
trait BatchReader extends AutoCloseable {

  /** Writes rows until the loader is full or the input ends; returns false when no rows remain. */
  def next(): Boolean
}

/** A reader that finds its file's schema in the data (JSON): discovery asks it for what it sampled. */
trait SchemaSampler {
  def sampledSchema: StructType
}
