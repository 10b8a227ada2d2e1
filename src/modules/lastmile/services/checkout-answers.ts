/**
 * What checkout is answered from, kept per app (decisions 18, 40, 41 and 43): the rates route's answers, the latest
 * per cart, and the checkout catalogue.
 */
import { RatesAnswers } from "../../../lib/checkout/rates-answers"
import { CheckoutCatalogueCache } from "../../../lib/checkout/medusa/checkout-catalogue"
import type { CartRatesState } from "../../../lib/checkout/medusa/cart-rates"
import { onStoreListChanged } from "../../../lib/service-client"
import type { ServiceConnectionService } from "./service-connection"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

type InjectedDependencies = { serviceConnectionService: ServiceConnectionService }

export class CheckoutAnswersService {
  /** The module's checkout answers, from the app's container. */
  static of(container: ContainerLike): CheckoutAnswersService {
    return container.resolve<{ checkout: CheckoutAnswersService }>(LASTMILE_MODULE).checkout
  }

  /** The rates route's answers, the latest per cart. */
  readonly ratesAnswers = new RatesAnswers()
  /** What checkout needs of the store that no cart changes. */
  readonly catalogue = new CheckoutCatalogueCache(60_000)
  protected readonly connection_: ServiceConnectionService
  /** A store's collection switched at the service (a read hands a list, a change none): answers are priced again. */
  private readonly onStoresChanged_ = (locations?: unknown[]) => (locations ? undefined : this.changed())

  constructor({ serviceConnectionService }: InjectedDependencies) {
    this.connection_ = serviceConnectionService
    // Held by this service for its life; the signal holds it weakly.
    onStoreListChanged(this.onStoresChanged_)
  }

  /** What the rates route and the check of a shopper's choice price a cart with. */
  cartRatesState(): CartRatesState {
    return {
      answers: this.ratesAnswers,
      catalogue: this.catalogue,
      quoteTtlMs: (this.connection_.get()?.options.quoteCacheTtlSeconds ?? 0) * 1000,
    }
  }

  /**
   * A change checkout shows (a shipping option, a location, the mapping, a store's collection switched at the
   * service): the store is read again and every cart priced again.
   */
  changed(): void {
    this.catalogue.clear()
    this.ratesAnswers.clear()
  }

  /** At shutdown. */
  close(): void {
    this.ratesAnswers.clear()
  }
}
