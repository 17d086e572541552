// ODRPackStore: the last step to the store (docs/store.md).
// - IPA/: `odrpack ipa`, an On-Demand Resources app's App Store package, thinned as `thin` thins and zipped with the
//   packs beside the app (docs/store.md#ipa).
// - Upload/: `odrpack upload`, Apple-hosted Background Assets packs sent through the App Store Connect API
//   (docs/store.md#upload).
// - Review/: `odrpack submit` and `odrpack status`, a build's uploaded pack versions to App Review and where each
//   stands, through Upload/'s client and record (docs/store.md#submit, docs/store.md#status).
