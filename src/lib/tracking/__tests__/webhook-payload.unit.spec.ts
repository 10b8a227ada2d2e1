import { eventKeyOf, taskReferenceOf } from "../webhook-payload"

describe("webhook payload", () => {
  it("finds the task however the body names it", () => {
    expect(taskReferenceOf({ taskId: 1001 })).toEqual({ taskId: "1001" })
    expect(taskReferenceOf({ data: { task: { id: "1001", trackingId: "LM1" } } })).toEqual({ trackingId: "LM1" })
    expect(taskReferenceOf({ task: { id: 7 } })).toEqual({ taskId: "7" })
    expect(taskReferenceOf({ event: "x", payload: { merchant_order_id: "order_1" } })).toEqual({
      merchantOrderId: "order_1",
    })
    expect(taskReferenceOf({ status: { taskId: 5, value: "DELIVERED" } })).toEqual({ taskId: "5" })
    expect(taskReferenceOf({ hello: "world" })).toEqual({})
    expect(taskReferenceOf([1, 2])).toEqual({})
  })

  it("keys events by the service's event id, else by the body's hash", () => {
    expect(eventKeyOf({ eventId: "evt_1", taskId: 1 }, Buffer.from("a"))).toBe("id:evt_1")
    const a = eventKeyOf({ taskId: 1 }, Buffer.from('{"taskId":1}'))
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(eventKeyOf({ taskId: 1 }, Buffer.from('{"taskId":1}'))).toBe(a)
    expect(eventKeyOf({ id: 1 }, Buffer.from('{"id":1}'))).toMatch(/^sha256:/)
  })
})
