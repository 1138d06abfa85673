/**
 * Where webhooks may be sent (`WebhookUrlRule`): every range of addresses the platform's own networks
 * use is refused, in every spelling an IP literal can take in a URL, and only the operator's
 * `allowPrivate` lifts that and the `https` rule.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  type AddressClass,
  classifyAddress,
  isRefusedAddress,
  longestWebhookUrl,
  validateWebhookUrl,
  type WebhookUrlOptions
} from "../src/index.js"

const strict = { allowPrivate: false } as const
const lenient = { allowPrivate: true } as const

const accepted = (text: string, options: WebhookUrlOptions = strict) => {
  const result = validateWebhookUrl(text, options)
  return Result.isSuccess(result) ? result.success.href : `refused: ${Result.getFailure(result)}`
}
const refusal = (text: string, options: WebhookUrlOptions = strict) => {
  const result = validateWebhookUrl(text, options)
  return Result.isFailure(result) ? result.failure : `accepted: ${result.success.href}`
}

describe("classifyAddress, isRefusedAddress", () => {
  it.each<readonly [string, AddressClass]>([
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["1.1.1.1", "public"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade-nat"],
    ["100.127.255.254", "carrier-grade-nat"],
    ["169.254.169.254", "link-local"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.1", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"]
  ])("IPv4 %s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected)
    expect(isRefusedAddress(address)).toBe(expected !== "public")
  })

  it.each<readonly [string, AddressClass]>([
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001:80b::200e", "public"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["ff0e::101", "multicast"],
    ["2001:db8::1", "reserved"],
    ["100::1", "reserved"],
    ["::7f00:1", "reserved"]
  ])("IPv6 %s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected)
    expect(isRefusedAddress(address)).toBe(expected !== "public")
  })

  it.each<readonly [string, AddressClass]>([
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:192.168.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::ffff:8.8.8.8", "public"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::8.8.8.8", "public"],
    ["64:ff9b:1::a00:1", "reserved"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::1", "private"],
    ["2002:808:808::1", "public"]
  ])("IPv6 %s, which stands for an IPv4 address, is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected)
    expect(isRefusedAddress(address)).toBe(expected !== "public")
  })

  it.each(["", "localhost", "example.com", "256.0.0.1", "1.2.3.4.5", "::g", "[::1]", "10.0.0.1/8"])(
    "%j is no address: invalid, and refused",
    (text) => {
      expect(classifyAddress(text)).toBe("invalid")
      expect(isRefusedAddress(text)).toBe(true)
    }
  )
})

describe("validateWebhookUrl", () => {
  it.each([
    ["https://hooks.example.com/petstore", "https://hooks.example.com/petstore"],
    ["https://HOOKS.Example.com:8443/a/b?c=d", "https://hooks.example.com:8443/a/b?c=d"],
    ["https://example.com", "https://example.com/"],
    ["https://93.184.216.34/hook", "https://93.184.216.34/hook"],
    ["https://[2606:4700:4700::1111]/hook", "https://[2606:4700:4700::1111]/hook"],
    // Names are checked on the addresses they resolve to, at each delivery.
    ["https://hooks.example.co.uk/hook", "https://hooks.example.co.uk/hook"],
    ["https://someone.github.io/hook", "https://someone.github.io/hook"],
    ["https://bücher.example/hook", null],
    ["https://hooks.bücher.de/in", "https://hooks.xn--bcher-kva.de/in"],
    ["https://example.com./hook", "https://example.com./hook"]
  ])("accepts %s as %s", (text, href) => {
    if (href === null) expect(refusal(text)).toBe(notUnderPublicSuffix)
    else expect(accepted(text)).toBe(href)
  })

  const notUnderPublicSuffix =
    "must name a host under a public suffix (such as hooks.example.com) or a public IP address"

  it.each([
    "https://localhost/hook",
    "https://hooks/in",
    "https://hooks.internal/in",
    "https://build.corp/in",
    "https://nas.lan/in",
    "https://printer.local/in",
    "https://hooks.example.test/in",
    "https://co.uk/in",
    "https://com/in"
  ])(
    "refuses %s: not under a suffix the Public Suffix List lists (its implicit * rule does not count)",
    (text) => {
      expect(refusal(text)).toBe(notUnderPublicSuffix)
      // Private deployments name their receivers as they like.
      expect(accepted(text, lenient)).toBe(text)
    }
  )

  it.each([
    "",
    "not a url",
    "hooks.example.com/petstore",
    "https://",
    "//example.com/x",
    "https://exa mple.com/"
  ])("refuses %j: not a URL", (text) => {
    expect(refusal(text)).toBe("must be a URL such as https://example.com/webhooks")
    expect(refusal(text, lenient)).toBe("must be a URL such as https://example.com/webhooks")
  })

  it("refuses http unless private networks are allowed", () => {
    expect(refusal("http://hooks.example.com/petstore")).toBe("must use https")
    expect(accepted("http://hooks.example.com/petstore", lenient)).toBe("http://hooks.example.com/petstore")
  })

  it.each(["ftp://example.com/x", "file:///etc/passwd", "ws://example.com/", "mailto:ops@example.com"])(
    "refuses %s, with or without private networks",
    (text) => {
      expect(refusal(text)).toBe("must use https")
      expect(refusal(text, lenient)).toBe("must use https or http")
    }
  )

  it.each(["https://user@example.com/", "https://user:secret@example.com/", "https://:secret@example.com/"])(
    "refuses %s: credentials, with or without private networks",
    (text) => {
      expect(refusal(text)).toBe("must not contain a user name or password")
      expect(refusal(text, lenient)).toBe("must not contain a user name or password")
    }
  )

  it.each([
    ["https://127.0.0.1/", "must not be a loopback address (127.0.0.1)"],
    ["https://127.1/", "must not be a loopback address (127.0.0.1)"],
    ["https://2130706433/", "must not be a loopback address (127.0.0.1)"],
    ["https://0x7f.0.0.1/", "must not be a loopback address (127.0.0.1)"],
    ["https://0177.0.0.1/", "must not be a loopback address (127.0.0.1)"],
    ["https://0.0.0.0/", "must not be an unspecified address (0.0.0.0)"],
    ["https://10.0.0.1/", "must not be a private address (10.0.0.1)"],
    ["https://172.16.5.4:8443/hook", "must not be a private address (172.16.5.4)"],
    ["https://192.168.1.1/", "must not be a private address (192.168.1.1)"],
    ["https://100.64.0.1/", "must not be a carrier-grade NAT address (100.64.0.1)"],
    ["https://169.254.169.254/latest/meta-data/", "must not be a link-local address (169.254.169.254)"],
    ["https://224.0.0.1/", "must not be a multicast address (224.0.0.1)"],
    ["https://255.255.255.255/", "must not be a broadcast address (255.255.255.255)"],
    ["https://192.0.2.1/", "must not be a reserved address (192.0.2.1)"]
  ])("refuses %s: an IPv4 literal in a refused range", (text, message) => {
    expect(refusal(text)).toBe(message)
  })

  it.each([
    ["https://[::1]/", "must not be a loopback address (::1)"],
    ["https://[0:0:0:0:0:0:0:1]:8443/", "must not be a loopback address (::1)"],
    ["https://[::]/", "must not be an unspecified address (::)"],
    ["https://[fe80::1]/", "must not be a link-local address (fe80::1)"],
    ["https://[fc00::1]/", "must not be a unique local address (fc00::1)"],
    ["https://[fd00::abcd]/", "must not be a unique local address (fd00::abcd)"],
    ["https://[fec0::1]/", "must not be a site-local address (fec0::1)"],
    ["https://[ff02::1]/", "must not be a multicast address (ff02::1)"],
    ["https://[2001:db8::1]/", "must not be a reserved address (2001:db8::1)"],
    ["https://[::ffff:127.0.0.1]/", "must not be a loopback address (::ffff:7f00:1)"],
    ["https://[::ffff:10.0.0.1]/", "must not be a private address (::ffff:a00:1)"],
    ["https://[::ffff:169.254.169.254]/", "must not be a link-local address (::ffff:a9fe:a9fe)"],
    ["https://[64:ff9b::192.168.0.1]/", "must not be a private address (64:ff9b::c0a8:1)"],
    ["https://[2002:c0a8:101::1]/", "must not be a private address (2002:c0a8:101::1)"]
  ])("refuses %s: an IPv6 literal in a refused range", (text, message) => {
    expect(refusal(text)).toBe(message)
  })

  it.each([
    "https://127.0.0.1:8443/hook",
    "https://10.0.0.1/",
    "https://[::1]/",
    "https://[fd00::1]/",
    "http://127.0.0.1:3000/hook",
    "http://[::1]:3000/hook",
    "http://localhost:3000/hook"
  ])("accepts %s when private networks are allowed", (text) => {
    expect(accepted(text, lenient)).toBe(text)
  })

  it(`refuses URLs longer than ${longestWebhookUrl} characters`, () => {
    const base = "https://example.com/"
    const longest = base + "a".repeat(longestWebhookUrl - base.length)
    expect(accepted(longest)).toBe(longest)
    expect(refusal(`${longest}a`)).toBe(`must be at most ${longestWebhookUrl} characters`)
  })
})
