package sparkdrill.formats.excel

import java.io.ByteArrayOutputStream

import org.apache.poi.poifs.crypt.{EncryptionInfo, EncryptionMode}
import org.apache.poi.poifs.filesystem.POIFSFileSystem

/** A workbook encrypted with a password, as Excel writes one: the package inside an OLE2 container. */
object Encrypted {
  def of(xlsx: Array[Byte]): Array[Byte] = {
    val fs = new POIFSFileSystem()
    val encryptor = new EncryptionInfo(EncryptionMode.agile).getEncryptor
    encryptor.confirmPassword("secret")
    val out = encryptor.getDataStream(fs)
    try out.write(xlsx)
    finally out.close()
    val bytes = new ByteArrayOutputStream()
    try fs.writeFilesystem(bytes)
    finally fs.close()
    bytes.toByteArray
  }
}
