package sparkdrill.spark.python

/** What a Python column parser looks like from the JVM: a Py4J proxy of this interface (it has only abstract
  * methods, so it compiles to a plain Java interface Py4J can implement). Values cross as JSON text, so no
  * Py4J collection or date conversions are involved. Only the driver ever calls it, while a scan is planned.
  */
trait PythonColumnParser {

  /** The parser's name, for messages: the Python class name. */
  def id(): String

  /** A JSON array of the column names the parser serves without a `project` list (hidden columns). */
  def columns(): String

  /** `null` when the parser does not claim `name`; else `{"type": "<Spark DDL type>"}`, or
    * `{"error": "<Python exception>"}` when the parser raised.
    */
  def parse(name: String): String

  /** The values of column `name` for the files in `files` (a JSON array of
    * `{"path", "dirs", "length", "modificationTime"}`): a JSON array, one entry per file, each
    * `{"value": <string or null>}` or `{"error": "<Python exception>"}`.
    */
  def values(name: String, files: String): String
}
