/**
 * A collection code as a QR image for the shopper's email (decision 65), drawn by the `qrcode` library: the code
 * alone, so a counter's scanner types it into Hand over.
 */
import { toDataURL } from "qrcode"
import type { LastmileNotificationData } from "./notification-data"

type WithCollection = Pick<LastmileNotificationData, "collection">

/** The data with its code's QR image (a PNG `data:` URL); unchanged when it carries no code. */
export async function withCollectionQr<T extends WithCollection>(data: T): Promise<T> {
  const code = data.collection?.code
  if (!code || !data.collection) {
    return data
  }
  const qr_image = await toDataURL(code, { errorCorrectionLevel: "M", margin: 2, width: 192 })
  return { ...data, collection: { ...data.collection, qr_image } }
}
