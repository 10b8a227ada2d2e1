/**
 * The demo's shopper storefront: a one-page checkout over js-sdk and the
 * plugin's storefront entry, and /mailbox, the emails a shopper was sent.
 */
import "@medusajs/dashboard/css"
import "./a11y.css"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { App } from "./app"
import { MailboxPage } from "./components/mailbox-page"
import { StartupFailure } from "./components/startup-failure"
import { loadDemoConfig } from "./lib/demo-config"
import { Shop } from "./lib/shop"

const root = createRoot(document.getElementById("root")!)

if (window.location.pathname === "/mailbox") {
  root.render(
    <StrictMode>
      <MailboxPage email={new URLSearchParams(window.location.search).get("email")} />
    </StrictMode>
  )
} else {
  loadDemoConfig().then(
    (config) =>
      root.render(
        <StrictMode>
          <App shop={new Shop(config)} />
        </StrictMode>
      ),
    (error: unknown) => root.render(<StartupFailure error={error} />)
  )
}
