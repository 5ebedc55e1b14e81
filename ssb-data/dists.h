/*
** ssb-data/dists.h — the word lists SSB draws from (dbgen's dists.dss, all
** weights 1). Owned by dists.c; everything here is static, read-only text.
*/
#ifndef STARQ_SSB_DISTS_H
#define STARQ_SSB_DISTS_H

#define SSB_NATION_COUNT 25
#define SSB_REGION_COUNT 5
#define SSB_COLOR_COUNT 92
#define SSB_SEGMENT_COUNT 5
#define SSB_PRIORITY_COUNT 5
#define SSB_SHIPMODE_COUNT 7
#define SSB_TYPE1_COUNT 6
#define SSB_TYPE2_COUNT 5
#define SSB_TYPE3_COUNT 5
#define SSB_CONTAINER1_COUNT 5
#define SSB_CONTAINER2_COUNT 8

extern const char *const ssb_aNation[SSB_NATION_COUNT];
extern const int ssb_aNationRegion[SSB_NATION_COUNT];  /* index into ssb_aRegion */
extern const char *const ssb_aRegion[SSB_REGION_COUNT];
extern const char *const ssb_aColor[SSB_COLOR_COUNT];
extern const char *const ssb_aSegment[SSB_SEGMENT_COUNT];
extern const char *const ssb_aPriority[SSB_PRIORITY_COUNT];
extern const char *const ssb_aShipMode[SSB_SHIPMODE_COUNT];
extern const char *const ssb_aType1[SSB_TYPE1_COUNT];
extern const char *const ssb_aType2[SSB_TYPE2_COUNT];
extern const char *const ssb_aType3[SSB_TYPE3_COUNT];
extern const char *const ssb_aContainer1[SSB_CONTAINER1_COUNT];
extern const char *const ssb_aContainer2[SSB_CONTAINER2_COUNT];

#endif /* STARQ_SSB_DISTS_H */
