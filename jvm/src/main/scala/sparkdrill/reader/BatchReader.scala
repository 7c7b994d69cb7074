package sparkdrill.reader

/** Reads one file (or split) into the loader's writers. */
trait BatchReader extends AutoCloseable {

  /** Writes rows until the loader is full or the input ends; returns false when no rows remain. */
  def next(): Boolean
}
