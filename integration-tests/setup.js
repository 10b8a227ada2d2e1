// Each spec file boots the app again; MikroORM must forget the previous boot's entities.
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

MetadataStorage.clear()
