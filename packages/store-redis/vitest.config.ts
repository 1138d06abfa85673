import shared from "@petstore/vitest-config"

export default shared
