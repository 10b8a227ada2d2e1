import { StoreDirectory } from "../store-directory"
import { announceStoreListChanged } from "../../../lib/service-client"
import type { StoreDescription } from "../../../lib/checkout/rate-selection"
import type { ServiceFulfilmentLocation } from "../../../lib/contracts/service-shapes"

const CAMDEN: StoreDescription = { externalLocationId: "store-camden", addressLine1: "201 Camden High Street" }
const SOHO: StoreDescription = { externalLocationId: "store-soho", addressLine1: "1 Dean Street" }

/** A store list the test answers by hand: each read waits until `answer` or `fail`. */
function serviceList() {
  const reads: { resolve: (stores: StoreDescription[]) => void; reject: (error: Error) => void }[] = []
  return {
    reads,
    load: () => new Promise<StoreDescription[]>((resolve, reject) => reads.push({ resolve, reject })),
    answer: (stores: StoreDescription[]) => reads[reads.length - 1].resolve(stores),
    fail: () => reads[reads.length - 1].reject(new Error("503 from the service")),
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))
/** Lets promise callbacks run, and no timer. */
const microtasks = async () => {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve()
  }
}

describe("StoreDirectory", () => {
  let now = 0
  const warn = jest.fn()
  const directories: StoreDirectory[] = []
  const directoryOver = (load: () => Promise<StoreDescription[]>) => {
    const directory = new StoreDirectory(load, {
      refreshMs: 300_000,
      retryMs: 5_000,
      missRefreshMs: 10_000,
      warn,
      now: () => now,
    })
    directories.push(directory)
    return directory
  }

  beforeEach(() => {
    now = 1_000_000
    warn.mockClear()
  })

  it("reads nothing until a quote needs it, then waits for the first read at most the time given", async () => {
    const service = serviceList()
    const directory = directoryOver(service.load)
    expect(service.reads).toHaveLength(0)

    const slow = await directory.get(20)
    expect(slow).toEqual([])
    // A later cart operation does not wait again on the read it already gave up on: it is answered before any timer runs.
    let later: StoreDescription[] | undefined
    void directory.get(500).then((stores) => (later = stores))
    await microtasks()
    expect(later).toEqual([])

    service.answer([CAMDEN])
    await settle()
    expect(await directory.get(0)).toEqual([CAMDEN])
    expect(service.reads).toHaveLength(1)
  })

  it("answers from the list held and reads it again in the background once it is old", async () => {
    const service = serviceList()
    const directory = directoryOver(service.load)
    const first = directory.get(1_000)
    service.answer([CAMDEN])
    expect(await first).toEqual([CAMDEN])

    now += 300_001
    expect(await directory.get(1_000)).toEqual([CAMDEN])
    expect(service.reads).toHaveLength(2)
    service.answer([CAMDEN, SOHO])
    await settle()
    expect(await directory.get(0)).toEqual([CAMDEN, SOHO])
  })

  it("reads again at once for a rate it cannot place, single flight, then not for 10 s", async () => {
    const service = serviceList()
    const directory = directoryOver(service.load)
    const first = directory.get(1_000)
    service.answer([CAMDEN])
    await first

    const a = directory.refreshNow(1_000)
    const b = directory.refreshNow(1_000)
    expect(service.reads).toHaveLength(2)
    service.answer([CAMDEN, SOHO])
    expect(await a).toEqual([CAMDEN, SOHO])
    expect(await b).toEqual([CAMDEN, SOHO])

    now += 9_000
    expect(await directory.refreshNow(1_000)).toBeUndefined()
    expect(service.reads).toHaveLength(2)
    now += 1_001
    const later = directory.refreshNow(1_000)
    expect(service.reads).toHaveLength(3)
    service.answer([SOHO])
    expect(await later).toEqual([SOHO])
  })

  it("keeps the list it holds when a read fails, says so, and tries again only after retryMs", async () => {
    const service = serviceList()
    const directory = directoryOver(service.load)
    const first = directory.get(1_000)
    service.answer([CAMDEN])
    await first

    const fresh = directory.refreshNow(1_000)
    service.fail()
    expect(await fresh).toBeUndefined()
    expect(await directory.get(0)).toEqual([CAMDEN])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("keeping the last one"))

    now += 300_001
    await directory.get(0)
    expect(service.reads).toHaveLength(3)
  })

  it("reads again when the admin announces a change, once it holds a list", async () => {
    const service = serviceList()
    const directory = directoryOver(service.load)
    announceStoreListChanged()
    expect(service.reads).toHaveLength(0)

    const first = directory.get(1_000)
    service.answer([CAMDEN])
    await first
    announceStoreListChanged()
    expect(service.reads).toHaveLength(2)
    service.answer([CAMDEN, SOHO])
    await settle()
    expect(await directory.get(0)).toEqual([CAMDEN, SOHO])
  })

  it("adopts the list the admin read, without a read of its own, mapped as its own reads are", async () => {
    const service = serviceList()
    const directory = directoryOver(service.load)
    const first = directory.get(1_000)
    service.answer([CAMDEN])
    await first

    const read: ServiceFulfilmentLocation[] = [
      {
        fulfilmentLocationId: 1,
        collectionEnabled: true,
        externalLocationId: "store-camden",
        address: { line1: "201 Camden High Street" },
      },
      {
        fulfilmentLocationId: 2,
        collectionEnabled: true,
        externalLocationId: "store-soho",
        address: { line1: "1 Dean Street" },
      },
      // No external id: nothing a rate could be attributed to, as in a read of its own.
      { fulfilmentLocationId: 3, collectionEnabled: true, name: "Pop-up" },
    ]
    announceStoreListChanged(read)
    expect(service.reads).toHaveLength(1)
    expect(await directory.get(0)).toEqual([CAMDEN, SOHO])
    // The adopted list counts as fresh: no background read for another refreshMs.
    now += 299_000
    expect(await directory.get(0)).toEqual([CAMDEN, SOHO])
    expect(service.reads).toHaveLength(1)
  })
})
