/** The session's delivery, decided from its settings and the flags it opened with (pure). */
import { sessionDelivery } from "../assembly/assemble-request.ts";
import type { Delivery } from "../deferral/delivery.ts";
import type { Session } from "../session/session.ts";

export function deliveryOf(session: Session): Delivery {
  return sessionDelivery({ ...session.settings, unsupportedModels: session.settings.runtime.unsupportedModels }).delivery;
}
